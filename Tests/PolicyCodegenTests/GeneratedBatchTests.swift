import Testing
@testable import PolicyCodegen
@testable import TestSupport

/// The batch helper (issue 47, item 4) in each language: its names and signatures, and the checks
/// of one item in order. (The slow tests compile and run it on batch cases.)
@Suite struct GeneratedBatchTests {
    @Test func namesAndSignaturesAreTheSameIdeaInEachLanguage() throws {
        let expected: [String: [String]] = [
            "Swift": ["public struct TicketItem: Sendable, Hashable {", "public enum Intent: String, Sendable, Hashable, CaseIterable {",
                      "case play", "case prefetch", "public var intent: Intent", "public var retryAfterS: Double?",
                      "public init(intent: Intent, status: Int? = nil, errorCode: String? = nil, retryAfterS: Double? = nil) {",
                      "public struct BatchRetry: Sendable, Hashable {", "public let indices: [Int]", "public let items: [TicketItem]",
                      "public let retryAfterS: Double?", "public let waitMs: Double?",
                      "public static func itemsToRetry(_ items: [TicketItem]) -> BatchRetry {"],
            "Kotlin": ["data class TicketItem @JvmOverloads constructor(val intent: Intent, val status: Int?, val errorCode: String? = null, val retryAfterS: Double? = null) {",
                       "enum class Intent(val value: String) {", "PLAY(\"play\"),", "PREFETCH(\"prefetch\")",
                       "data class BatchRetry(val indices: List<Int>, val items: List<TicketItem>, val retryAfterS: Double?, val waitMs: Double?)",
                       "fun itemsToRetry(items: List<TicketItem>): BatchRetry {"],
            "TypeScript": ["export type TicketItem = { intent: \"play\" | \"prefetch\"; status?: number | null; errorCode?: string | null; retryAfterS?: number | null };",
                           "export type BatchRetry = { indices: number[]; items: TicketItem[]; retryAfterS: number | null; waitMs: number | null };",
                           "export function itemsToRetry(items: readonly TicketItem[]): BatchRetry {"],
        ]
        for (language, text) in try GeneratedClientTests.sources() {
            let lines = Set(text.split(separator: "\n").map { String($0.drop { $0 == " " }) })
            for line in expected[language]! { #expect(lines.contains(line), "\(language): \(line)") }
        }
    }

    /// Per item: 2xx, `not_ready`, a refused prefetch, `isRetryable`, then the wait when Retry-After
    /// is honored; the policy's values by their names, so that a waiver's values are the ones run.
    @Test func itemChecksComeInOrderAndReadThePolicy() throws {
        let order: [String: [String]] = [
            "Swift": ["status >= 200 && status < 300", "elementsEqual(\"not_ready\".utf8)",
                      "item.intent == .prefetch && item.status == 429 && !retryRefusedPrefetch",
                      "!isRetryable(status: item.status, errorCode: item.errorCode)", "indices.append(i)", "if retryAfterHonored,",
                      "waitMs: largest.map { $0 * 1000 }"],
            "Kotlin": ["status >= 200 && status < 300", "item.errorCode == \"not_ready\"",
                       "item.intent == TicketItem.Intent.PREFETCH && status == 429 && !RETRY_REFUSED_PREFETCH",
                       "!isRetryable(status, item.errorCode)", "indices.add(i)", "if (RETRY_AFTER_HONORED &&", "largest * 1000.0"],
            "TypeScript": ["status >= 200 && status < 300", "item.errorCode === \"not_ready\"",
                           "item.intent === \"prefetch\" && status === 429 && !RETRY_REFUSED_PREFETCH",
                           "!isRetryable(status, item.errorCode)", "indices.push(i)", "if (RETRY_AFTER_HONORED &&", "largest * 1000"],
        ]
        for (language, text) in try GeneratedClientTests.sources() {
            let body = try #require(text.range(of: "BatchRetry {").map { text[$0.upperBound...] }, "\(language)")
            var from = body.startIndex
            for step in order[language]! {
                let found = body.range(of: step, range: from..<body.endIndex)
                #expect(found != nil, "\(language): \(step) after the step before it")
                if let found { from = found.upperBound }
            }
        }
    }
}

import Testing

@testable import PolicyKit
@testable import TestSupport
/// A megabyte of tiny mappings and lists: the loader gives the first collections of a file room
/// for a policy's few entries up front, and a hostile file of hundreds of thousands must still
/// stay within the memory bound (see `FaultLimitsTests.memoryBound`, checked by `lint`).
@Suite struct FaultManyCollectionsTests {
    static let inputs: [(name: String, text: String)] = [
        ("empty mappings", "[" + String(repeating: "{},", count: 340_000) + "{}]\n"),
        ("empty lists", "[" + String(repeating: "[],", count: 340_000) + "[]]\n"),
        ("one-key mappings", String(repeating: "- a: 1\n", count: 145_000)),
        ("one-item lists", String(repeating: "- [1]\n", count: 170_000)),
    ]

    @Test(arguments: inputs.indices)
    func manyTinyCollectionsStayWithinTheMemoryBound(_ index: Int) throws {
        let input = Self.inputs[index]
        #expect(input.text.utf8.count < 1 << 20, "\(input.name)")
        let (outcome, found) = try FaultLimitsTests().lint(Array(input.text.utf8))
        #expect(outcome.status == 1, "\(input.name)")
        FaultLimitsTests().expectOne(found, "type-mismatch", at: 1, 1, "must be a mapping, found a list")
    }
}

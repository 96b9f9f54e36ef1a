
@testable import PolicyKit
/// A deterministic random generator for tests that try many inputs, so a failure can be reproduced
/// from its seed.
package struct Rng {
    package var state: UInt64
    package init(state: UInt64) { self.state = state }
    package mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Text with every line break libyaml counts, characters of each UTF-8 width, and long lines
    /// of ASCII and of accents: what line maps and reports are tried on.
    package static let linePieces = ["a", "b c", "\t", "é", "日本", "\u{1F600}", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}",
                             String(repeating: "x", count: 70), String(repeating: "é", count: 130),
                             String(repeating: "0123456789", count: 13)]

    /// `count` pieces picked from `pieces`, after a BOM when `bom`.
    package mutating func text(_ count: Int, of pieces: [String] = Rng.linePieces, bom: Bool = false) -> String {
        var text = bom ? "\u{FEFF}" : ""
        for _ in 0..<count { text += pick(pieces) }
        return text
    }
}

import Testing
@testable import PolicySource
@testable import PolicyCheck
@testable import TestSupport

/// Did-you-mean against references written the obvious way: `nearest` skips the distances when no
/// candidate can be near enough, `sameSquashed` reads a long key no further than it must.
@Suite struct SuggestTests {
    static func reference(_ word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased().unicodeScalars.prefix(64))
        var best: (String, Int)?
        for c in candidates {
            let d = Suggest.distance(w, Array(c.lowercased().unicodeScalars))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        if d <= max(2, max(w.count, candidate.count) / 3) { return candidate }
        let squash = { (s: String) in Array(s.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " }) }
        return candidates.first { squash($0) == squash(word) }
    }

    /// `lowered(upTo:)` gives `lowercased()`'s scalars, the first `limit`: lowercasing maps each
    /// scalar on its own (final sigma too), İ to two scalars.
    @Test func loweringScalarByScalarIsLowercased() {
        var rng = Rng(state: 67)
        let pieces = ["a", "B", "ΑΣ", "Σ", "ς", "İ", "I", "\u{212A}", "ẞ", "ß", "ǅ", "É", "e\u{301}", "Ω", "\u{2126}", "日",
                      "😀", "_", "-", " ", "\u{10400}", "ＡＢ"]
        for _ in 0..<2000 {
            let text = (0..<rng.below(12)).map { _ in rng.pick(pieces) }.joined()
            let lowered = Array(text.lowercased().unicodeScalars)
            #expect(Suggest.lowered(text) == lowered, "\(text.debugDescription)")
            for limit in [0, 1, 3, 64] {
                #expect(Suggest.lowered(text, upTo: limit) == Array(lowered.prefix(limit)), "\(text.debugDescription) \(limit)")
            }
        }
    }

    /// `byParts` answers as lowering every word whole and comparing scalars does, for words past
    /// ASCII among ASCII candidates (where it leaves most scalars unlowered) and among others.
    @Test func byPartsAnswersAsLoweringWhole() {
        func reference(_ word: String, in candidates: [String]) -> String? {
            let w = Array(word.lowercased().unicodeScalars)
            guard w.count >= 3 else { return nil }
            var best: (candidate: String, score: Int)?
            var tied = false
            for c in candidates {
                let lc = Array(c.lowercased().unicodeScalars)
                guard lc.count >= 3, lc != w else { continue }
                let shared = min(lc.count, w.count)
                func occurs(_ n: [Unicode.Scalar], _ h: [Unicode.Scalar]) -> Bool {
                    n.count <= h.count && (0...(h.count - n.count)).contains { h[$0..<($0 + n.count)].elementsEqual(n) }
                }
                let score: Int
                if w.starts(with: lc) || lc.starts(with: w) { score = 2 * shared + 1 }
                else if occurs(lc, w) || occurs(w, lc) { score = 2 * shared }
                else { continue }
                if best == nil || score > best!.score { best = (c, score); tied = false }
                else if score == best!.score { tied = true }
            }
            return tied ? nil : best?.candidate
        }
        var rng = Rng(state: 71)
        let pieces = ["retry", "On", "TIME", "out", "\u{212A}", "İ", "ı", "É", "é", "Σ", "日", "_", "ms", "jitter", "Max", "i\u{307}",
                      "\u{212A}ind", "ind", "d"]
        let sets = [Language.retry.map(\.key), Language.profile.map(\.key), ["kind", "maxJitter", "honor"], ["İd", "kİnd", "tİme", "Éclair"]]
        var found = 0
        for _ in 0..<3000 {
            let word = (0..<rng.below(6)).map { _ in rng.pick(pieces) }.joined()
            for set in sets {
                let answer = Suggest.byParts(word, in: set)
                #expect(answer == reference(word, in: set), "\(word.debugDescription) in \(set)")
                if answer != nil { found += 1 }
            }
        }
        #expect(found > 150)
    }

    @Test func nearestAnswersAsComputingEveryDistance() {
        let candidates = Language.root.map(\.key) + ["maxRetries", "retryOn", "network", "a", "ab"]
        var rng = Rng(state: 61)
        var words = candidates + ["max_retries", "MAX-RETRIES", "maxRetry", String(repeating: "maxRetries", count: 20), "x", "",
                                  // Non-ASCII: lowered by Unicode, not by bytes (İ lowers to two scalars).
                                  "MAXRETRİES", "İ", "maxRétries", "max_rétries", "ß", "NETWORK\u{301}", "net work\u{308}", "ＮＥＴＷＯＲＫ",
                                  // Too far to be typos, the same once squashed.
                                  "m a x r e t r i e s", "M_A_X-R_E_T_R_I_E_S", "N E T W O R K", "n-e-t-w-o-r-Z", "N_E_T_W_O_R_K_Z", "ZA", "@[`{", "@@@@@@"]
        for _ in 0..<3000 {
            let base = rng.pick(candidates)
            var w = Array(base)
            for _ in 0..<rng.below(4) where !w.isEmpty {
                let i = rng.below(w.count)
                switch rng.below(3) {
                case 0: w.remove(at: i)
                case 1: w.insert(rng.pick(Array("abz_- ")), at: i)
                default: w[i] = rng.pick(Array("xyzQZA@[_Éİé"))
                }
            }
            if rng.below(10) == 0 { w += Array(repeating: "k", count: rng.below(90)) }
            words.append(String(w))
        }
        var found = 0
        for word in words {
            for set in [candidates, ["network"], ["a"], [], ["Network", "maxRétries", "max-retries", "İd", "networkz", "za", "@[`{", "``````"]] {
                let answer = Suggest.nearest(word, in: set)
                #expect(answer == Self.reference(word, in: set), "\(word) in \(set)")
                if answer != nil { found += 1 }
            }
        }
        #expect(found > 1000)
    }

    /// Comparing squashed says what squashing both whole with `lowercased()` and comparing their
    /// scalars says: for ASCII keys in any case with any separators, and for text past ASCII (the
    /// Kelvin sign lowercases to "k", İ to "i" and a combining dot) anywhere in either.
    @Test func sameSquashedIsSquashingBoth() {
        func squash(_ text: String) -> [Unicode.Scalar] {
            Array(text.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        }
        var rng = Rng(state: 47)
        let pieces = ["max", "Max", "MAX", "retries", "Retries", "_", "-", " ", "k", "K", "\u{212A}", "I",
                      "\u{307}", "é", "e\u{301}", "ß", "SS", "a", "", "İ", "i\u{307}", "_\u{301}", "Σ"]
        var words = ["maxRetries", "max_retries", "max-Retries", "MAXRETRIES", "maxRetrie", "maxRetriess", "",
                     "-", "k", "\u{212A}", "K"]
        for _ in 0..<600 { words.append((0..<rng.below(6)).map { _ in rng.pick(pieces) }.joined()) }
        var same = 0
        for a in words {
            for b in [rng.pick(words), rng.pick(words), a.uppercased(), a.replacingOccurrences(of: "_", with: "-")] {
                let expected = squash(a) == squash(b)
                #expect(Suggest.sameSquashed(a, b) == expected, "\(a.debugDescription) \(b.debugDescription)")
                #expect(Suggest.lowered(a, squashed: true) == squash(a), "\(a.debugDescription)")
                if expected { same += 1 }
            }
        }
        #expect(same > 600 && same < 4 * words.count - 100)
    }

}

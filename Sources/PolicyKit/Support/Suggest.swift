/// Did-you-mean: the candidate closest to `word`, when it is close enough to be a likely typo.
public enum Suggest {
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = Array(word.lowercased().unicodeScalars.prefix(64))
        var best: (String, Int)?
        // The distance is at least the difference in length: when that alone puts every candidate
        // past its limit, none can be the answer, and a long unknown key (5 000 of them in a file)
        // skips the distances, which cost 60,000 instructions each.
        let hopeless = candidates.allSatisfy { c in
            let n = c.lowercased().unicodeScalars.count
            return abs(w.count - n) > max(2, max(w.count, n) / 3)
        }
        for c in candidates where !hopeless {
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (candidate, d) = best else { return nil }
        // A third of the longer word: `maxRetry` → `maxRetries` (3 edits) is a typo, `cap` → `kind` is not.
        let limit = max(2, max(w.count, candidate.count) / 3)
        if d <= limit { return candidate }
        // A key written with other separators or case: max_retries → maxRetries. The word is
        // squashed once (a file of a thousand unknown keys asks this a thousand times).
        let squash = { (s: String) in s.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " } }
        let squashed = squash(word)
        return candidates.first { squash($0) == squashed }
    }

    /// The candidate that `word` is built on or part of, for a word too far from every candidate
    /// to be a typo: `retryOnStatus` → `retryOn`, `timeoutMs` → `timeout`, `jitter` → `maxJitter`.
    /// A prefix beats a part found inside, the longer shared text beats the shorter; nil when two
    /// candidates are equally good, or the shared text is under three letters.
    public static func byParts(_ word: String, in candidates: [String]) -> String? {
        let w = word.lowercased()
        guard w.count >= 3 else { return nil }
        var best: (candidate: String, score: Int)?
        var tied = false
        for c in candidates {
            let lc = c.lowercased()
            guard lc.count >= 3, lc != w else { continue }
            let shared = min(lc.count, w.count)
            let score: Int
            if w.hasPrefix(lc) || lc.hasPrefix(w) {
                score = 2 * shared + 1
            } else if w.contains(lc) || lc.contains(w) {
                score = 2 * shared
            } else {
                continue
            }
            if best == nil || score > best!.score {
                best = (c, score)
                tied = false
            } else if score == best!.score {
                tied = true
            }
        }
        return tied ? nil : best?.candidate
    }

    /// Levenshtein distance with transpositions counted once (optimal string alignment).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows in one buffer, reused row by row (three arrays a call cost more than the sums).
        let width = b.count + 1
        var rows = [Int](repeating: 0, count: 3 * width)
        return rows.withUnsafeMutableBufferPointer { r -> Int in
            var previous2 = 0, previous = width, current = 2 * width
            for j in 0...b.count { r[previous + j] = j }
            for i in 1...a.count {
                r[current] = i
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var v = min(r[previous + j] + 1, r[current + j - 1] + 1, r[previous + j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        v = min(v, r[previous2 + j - 2] + 1)
                    }
                    r[current + j] = v
                }
                (previous2, previous, current) = (previous, current, previous2)
            }
            return r[previous + b.count]
        }
    }

    /// `a, b or c`.
    public static func orList(_ items: [String]) -> String { list(items, "or") }

    /// `a, b and c`.
    public static func andList(_ items: [String]) -> String { list(items, "and") }

    static func list(_ items: [String], _ word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
    }
}

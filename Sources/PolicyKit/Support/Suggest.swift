/// Did-you-mean: the candidate closest to `word`, when it is close enough to be a likely typo.
public enum Suggest {
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = lowercasedScalars(word, upTo: 64)
        // The distance is at least the difference in length: when that alone puts every candidate
        // past its limit, none can be a typo's answer, and a long unknown key (5 000 of them in a
        // file) skips the distances, which cost 60,000 instructions each. An ASCII candidate's
        // length is its bytes': it is lowercased only when a distance is wanted.
        let hopeless = candidates.allSatisfy { c in
            let count = c.utf8.allSatisfy { $0 < 0x80 } ? c.utf8.count : lowercasedScalars(c).count
            return abs(w.count - count) > max(2, max(w.count, count) / 3)
        }
        if !hopeless {
            // Each candidate lowercased once.
            let lowered = candidates.map { lowercasedScalars($0) }
            var best: (String, Int)?
            for (c, lower) in zip(candidates, lowered) {
                let d = distance(w, lower)
                if best == nil || d < best!.1 { best = (c, d) }
            }
            // A third of the longer word: `maxRetry` → `maxRetries` (3 edits) is a typo, `cap` → `kind` is not.
            if let (candidate, d) = best, d <= max(2, max(w.count, candidate.count) / 3) { return candidate }
        }
        // A key written with other separators or case: max_retries → maxRetries.
        return candidates.first { sameSquashed(word, $0) }
    }

    /// Whether `squash(a) == squash(b)`. For ASCII on the bytes, with nothing made: a file of a
    /// thousand long unknown keys asked this ten thousand times, and squashing both texts each
    /// time was a quarter of reporting them.
    static func sameSquashed(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        let ascii = a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                var i = 0, j = 0
                while true {
                    while i < x.count, x[i] == 0x5F || x[i] == 0x2D || x[i] == 0x20 { i += 1 }
                    while j < y.count, y[j] == 0x5F || y[j] == 0x2D || y[j] == 0x20 { j += 1 }
                    // Where one text ends or the two differ, what is left decides, unless it holds
                    // text past ASCII: that `squash` lowercases and filters by Characters.
                    guard i < x.count, j < y.count else {
                        if x[i...].contains(where: { $0 >= 0x80 }) || y[j...].contains(where: { $0 >= 0x80 }) { return nil }
                        return i == x.count && j == y.count
                    }
                    guard x[i] < 0x80, y[j] < 0x80 else { return nil }
                    if ASCIIName.lower(x[i]) != ASCIIName.lower(y[j]) {
                        if x[i...].contains(where: { $0 >= 0x80 }) || y[j...].contains(where: { $0 >= 0x80 }) { return nil }
                        return false
                    }
                    i += 1
                    j += 1
                }
            }
        }
        return ascii ?? (squash(a) == squash(b))
    }

    /// `text.lowercased()`'s scalars, the first `limit`. ASCII text (every key of the language, and
    /// most typos of one) is lowered byte by byte: `lowercased()` cost thousands of instructions a
    /// word, and a file of a thousand unknown keys asked it of ten candidates each.
    static func lowercasedScalars(_ text: String, upTo limit: Int = .max) -> [Unicode.Scalar] {
        var text = text
        let ascii = text.withUTF8 { bytes -> [Unicode.Scalar]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.prefix(limit).map { Unicode.Scalar(ASCIIName.lower($0)) }
        }
        return ascii ?? Array(text.lowercased().unicodeScalars.prefix(limit))
    }

    /// Lowercased without `_`, `-` and spaces (Characters, as a reader sees them).
    static func squash(_ text: String) -> String {
        var text = text
        let ascii = text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            for b in bytes where b != 0x5F && b != 0x2D && b != 0x20 { out.append(ASCIIName.lower(b)) }
            return String(decoding: out, as: UTF8.self)
        }
        return ascii ?? text.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " }
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

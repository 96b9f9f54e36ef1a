/// Did-you-mean: the candidate closest to `word`, when it is close enough to be a likely typo.
public enum Suggest {
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = lowercasedScalars(word, upTo: 64)
        // The distance is at least the difference in length: when that alone puts every candidate
        // past its limit, none can be a typo's answer, and a long unknown key (a file may hold
        // thousands) skips the distances, which are dear. An ASCII candidate's
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

    /// Whether `a` and `b` are the same lowercased without `_`, `-` and spaces, by scalars as all
    /// policy text compares. For ASCII on the bytes, with nothing made: a file of a
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
                    // text past ASCII: that is lowered by Unicode (`Lowered`, below).
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
        if let ascii { return ascii }
        // Past ASCII: the lowered scalars compared as they are made, to the first that differs
        // (squashing both whole for each candidate is ruinous for a very long key).
        var x = Lowered(a, squashed: true), y = Lowered(b, squashed: true)
        while true {
            let p = x.next(), q = y.next()
            guard p == q else { return false }
            if p == nil { return true }
        }
    }

    /// The scalars of `text.lowercased()` one at a time, without `_`, `-` and spaces when
    /// `squashed`. Lowercasing maps each scalar on its own, with no context (a test holds this to
    /// `lowercased()`), so a text is lowered only as far as it is read.
    struct Lowered: IteratorProtocol {
        private var scalars: String.UnicodeScalarView.Iterator
        /// The rest of a scalar that lowers to more than one (İ: i and a combining dot), last first.
        private var rest: [Unicode.Scalar] = []
        private let squashed: Bool

        init(_ text: String, squashed: Bool = false) {
            scalars = text.unicodeScalars.makeIterator()
            self.squashed = squashed
        }

        mutating func next() -> Unicode.Scalar? {
            while true {
                let scalar: Unicode.Scalar
                if let r = rest.popLast() {
                    scalar = r
                } else {
                    guard let s = scalars.next() else { return nil }
                    if s.isASCII {
                        scalar = Unicode.Scalar(ASCIIName.lower(UInt8(s.value)))
                    } else {
                        rest = s.properties.lowercaseMapping.unicodeScalars.reversed()
                        guard let first = rest.popLast() else { continue }
                        scalar = first
                    }
                }
                if squashed && (scalar == "_" || scalar == "-" || scalar == " ") { continue }
                return scalar
            }
        }
    }

    /// `text.lowercased()`'s scalars, the first `limit`. ASCII text (every key of the language, and
    /// most typos of one) is lowered byte by byte: `lowercased()` is slow, and a file of many
    /// unknown keys asks it of several candidates each.
    static func lowercasedScalars(_ text: String, upTo limit: Int = .max) -> [Unicode.Scalar] {
        var text = text
        let ascii = text.withUTF8 { bytes -> [Unicode.Scalar]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.prefix(limit).map { Unicode.Scalar(ASCIIName.lower($0)) }
        }
        if let ascii { return ascii }
        // As they are read, and no further than `limit`: a long value is not lowered whole to
        // keep only its first scalars.
        var lowered = Lowered(text), out: [Unicode.Scalar] = []
        while out.count < limit, let scalar = lowered.next() { out.append(scalar) }
        return out
    }

    /// The candidate that `word` is built on or part of, for a word too far from every candidate
    /// to be a typo: `retryOnStatus` → `retryOn`, `timeoutMs` → `timeout`, `jitter` → `maxJitter`.
    /// A prefix beats a part found inside, the longer shared text beats the shorter; nil when two
    /// candidates are equally good, or the shared text is under three letters.
    /// Lowercased and compared by scalars, as all policy text is.
    public static func byParts(_ word: String, in candidates: [String]) -> String? {
        let w = forParts(word, asciiOnly: candidates.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } })
        guard w.count >= 3 else { return nil }
        var best: (candidate: String, score: Int)?
        var tied = false
        for c in candidates {
            let lc = lowercasedScalars(c)
            guard lc.count >= 3, lc != w else { continue }
            let shared = min(lc.count, w.count)
            let score: Int
            if w.starts(with: lc) || lc.starts(with: w) {
                score = 2 * shared + 1
            } else if occurs(lc, in: w) || occurs(w, in: lc) {
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

    /// `word` lowered for `byParts`. Against ASCII candidates only ASCII scalars can match, and
    /// only İ (to i and a combining dot) and the Kelvin sign (to k) lower to any from past ASCII,
    /// each other scalar to one scalar past it (a test holds these facts to Unicode's tables):
    /// so the others stay as they are, and a long key is not lowered scalar by scalar, which is
    /// slow.
    static func forParts(_ word: String, asciiOnly: Bool) -> [Unicode.Scalar] {
        guard asciiOnly else { return lowercasedScalars(word) }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(word.utf8.count)
        for s in word.unicodeScalars {
            if s.isASCII {
                out.append(Unicode.Scalar(ASCIIName.lower(UInt8(s.value))))
            } else if s == "\u{212A}" {
                out.append("k")
            } else if s == "\u{130}" {
                out += ["i", "\u{307}"]
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// Whether `needle` occurs in `hay`, scalar for scalar (an empty needle does).
    static func occurs(_ needle: [Unicode.Scalar], in hay: [Unicode.Scalar]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= hay.count else { return false }
        for i in 0...(hay.count - needle.count) where hay[i] == first {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
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

    /// The help that offers `meant` for what was `written`: "did you mean 'reuseKey'?", and when
    /// the two differ only where `written` has characters past ASCII, which characters, by code
    /// and name. Otherwise a key written with a KELVIN SIGN, or a value with a Cyrillic 'е', reads
    /// as the very word offered in its place: the finding would look wrong.
    public static func didYouMean(_ written: String, _ meant: String) -> String {
        "did you mean '\(meant)'?" + (lookAlike(written, meant).map { " (\($0))" } ?? "")
    }

    /// "this one has U+212A KELVIN SIGN for 'K'": what `written` has where `meant` has ASCII, when
    /// they have as many scalars and differ only there; nil otherwise.
    package static func lookAlike(_ written: String, _ meant: String) -> String? {
        // Words the language offers are short: a long text is no look-alike of one.
        guard written.utf8.count <= 4 * excerptLimit, meant.utf8.count <= excerptLimit else { return nil }
        let w = Array(written.unicodeScalars), m = Array(meant.unicodeScalars)
        guard w.count == m.count else { return nil }
        var seen: [(Unicode.Scalar, Unicode.Scalar)] = []
        for (a, b) in zip(w, m) where a != b {
            guard !a.isASCII, b.isASCII else { return nil }
            if !seen.contains(where: { $0 == (a, b) }) { seen.append((a, b)) }
        }
        guard !seen.isEmpty else { return nil }
        let shown = seen.prefix(3).map { "\(describeScalar($0.0)) for '\(printable(String($0.1)))'" }
        return "this one has " + andList(seen.count > 3 ? shown + ["\(seen.count - 3) more"] : shown)
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

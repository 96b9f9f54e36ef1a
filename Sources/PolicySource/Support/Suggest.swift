/// Did-you-mean: the candidate closest to `word`, when it is close enough to be a likely typo.
/// Words compare lowercased, by Unicode scalars, as all policy text compares.
public enum Suggest {
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = lowered(word, upTo: 64)
        let loweredCandidates = candidates.map { Suggest.lowered($0) }
        // The distance is at least the difference in length: when that alone puts every candidate
        // past its limit, none can be a typo's answer, and a long unknown key (a file may hold
        // thousands) skips the distances.
        if loweredCandidates.contains(where: { abs(w.count - $0.count) <= limit(w.count, $0.count) }) {
            var best: (candidate: String, distance: Int)?
            for (c, lc) in zip(candidates, loweredCandidates) {
                let d = distance(w, lc)
                if best.map({ d < $0.distance }) ?? true { best = (c, d) }
            }
            if let best, best.distance <= limit(w.count, best.candidate.count) { return best.candidate }
        }
        // A key written with other separators or case: max_retries → maxRetries.
        return candidates.first { sameSquashed(word, $0) }
    }

    /// A third of the longer word: `maxRetry` → `maxRetries` (3 edits) is a typo, `cap` → `kind` is not.
    private static func limit(_ a: Int, _ b: Int) -> Int { max(2, max(a, b) / 3) }

    /// Whether `a` and `b` are the same lowercased without `_`, `-` and spaces. `b` is a word of the
    /// language: `a` is read no further than one scalar past it.
    static func sameSquashed(_ a: String, _ b: String) -> Bool {
        let y = lowered(b, squashed: true)
        return lowered(a, upTo: y.count + 1, squashed: true) == y
    }

    /// The scalars of `text.lowercased()`, the first `limit` (without `_`, `-` and spaces when
    /// `squashed`). Lowercasing maps each scalar on its own (a test holds this to `lowercased()`),
    /// so a long text is lowered no further than asked.
    static func lowered(_ text: String, upTo limit: Int = .max, squashed: Bool = false) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        func add(_ l: Unicode.Scalar) -> Bool {
            if squashed && (l == "_" || l == "-" || l == " ") { return true }
            guard out.count < limit else { return false }
            out.append(l)
            return true
        }
        for s in text.unicodeScalars {
            if s.isASCII {
                guard add(("A"..."Z").contains(s) ? Unicode.Scalar(s.value + 0x20)! : s) else { break }
            } else {
                guard s.properties.lowercaseMapping.unicodeScalars.allSatisfy(add) else { break }
            }
        }
        return out
    }

    /// The candidate that `word` is built on or part of, for a word too far from every candidate
    /// to be a typo: `retryOnStatus` → `retryOn`, `timeoutMs` → `timeout`, `jitter` → `maxJitter`.
    /// A prefix beats a part found inside, the longer shared text beats the shorter; nil when two
    /// candidates are equally good, or the shared text is under three letters.
    public static func byParts(_ word: String, in candidates: [String]) -> String? {
        let w = lowered(word)
        guard w.count >= 3 else { return nil }
        var best: (candidate: String, score: Int)?
        var tied = false
        for c in candidates {
            let lc = lowered(c)
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

    /// Whether `needle` occurs in `hay`, scalar for scalar (an empty needle does).
    static func occurs(_ needle: [Unicode.Scalar], in hay: [Unicode.Scalar]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= hay.count else { return false }
        for i in 0...(hay.count - needle.count) where hay[i] == first {
            if hay[i..<(i + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Levenshtein distance with transpositions counted once (optimal string alignment), a row
    /// of the table at a time.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2: [Int] = [], previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous) = (previous, current)
        }
        return previous[b.count]
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
        return "this one has " + Wording.list(seen.count > 3 ? shown + ["\(seen.count - 3) more"] : shown)
    }
}

import PolicySource

/// Applies the fixes of a file's findings: bytes in, fixed bytes out, and what was applied. Pure.
///
/// Check, apply every fix that does not overlap an earlier one, and check again, until nothing
/// more applies (at most `maxPasses` times): a fix may reveal another (a value that now decodes
/// meets its limit). A pass whose result would not parse is retried fix by fix, keeping only
/// those that leave the file parseable, so a fix can never break a file. The result is a fixed
/// point: fixing it again changes nothing.
public enum Fixer {
    public static let maxPasses = 10

    /// One fix that was applied, with the finding it fixed (positions in the text of its pass).
    public struct Applied: Sendable, Hashable {
        public var rule: RuleID
        public var span: Span
        public var safety: Fix.Safety
        public var description: String
    }

    public struct Outcome: Sendable {
        /// The fixed text (the input itself when nothing applied).
        public var bytes: [UInt8]
        public var applied: [Applied]
        /// The fixed text, checked: the findings that remain.
        public var file: CheckedFile
        public var changed: Bool { !applied.isEmpty }
    }

    /// Fixes `bytes`: the safe fixes, and the unsafe ones too when `unsafe`.
    public static func fix(_ bytes: [UInt8], path: String, unsafe: Bool, options: CheckOptions = CheckOptions()) -> Outcome {
        fix(bytes, path: path, unsafe: unsafe) { Checker.check($0, path: $1, options: options) }
    }

    /// `fix` of a file that `check` reads (the project file's reader, say).
    public static func fix(_ bytes: [UInt8], path: String, unsafe: Bool,
                           check: ([UInt8], String) -> CheckedFile) -> Outcome {
        var current = bytes
        var applied: [Applied] = []
        var file = check(current, path)
        for _ in 0..<maxPasses {
            let wanted = file.diagnostics.filter { d in
                guard let fix = d.fix else { return false }
                return unsafe || fix.safety == .safe
            }
            guard !wanted.isEmpty else { break }
            let step = apply(wanted.map { $0.fix! }, to: current)
            guard !step.applied.isEmpty, step.bytes != current else { break }
            for i in step.applied {
                let d = wanted[i]
                applied.append(Applied(rule: d.rule, span: d.span, safety: d.fix!.safety, description: d.fix!.description))
            }
            current = step.bytes
            file = check(current, path)
        }
        return Outcome(bytes: current, applied: applied, file: file)
    }

    /// One pass: the fixes applied to `bytes` in a fixed order (by where their first edit stands,
    /// then as given), each skipped when one of its edits overlaps an edit already taken or when
    /// it would leave the file unparseable. `applied` holds the indices of the fixes taken.
    public static func apply(_ fixes: [Fix], to bytes: [UInt8]) -> (bytes: [UInt8], applied: [Int]) {
        let text = LineIndex(bytes)
        var resolved: [(index: Int, edits: [ByteEdit])] = []
        for (i, fix) in fixes.enumerated() {
            if let edits = byteEdits(fix, in: text) { resolved.append((i, edits)) }
        }
        resolved.sort { a, b in
            a.edits[0].lower != b.edits[0].lower ? a.edits[0].lower < b.edits[0].lower : a.index < b.index
        }
        var taken: [(index: Int, edits: [ByteEdit])] = []
        for candidate in resolved where !taken.contains(where: { overlaps($0.edits, candidate.edits) }) {
            taken.append(candidate)
        }
        guard !taken.isEmpty else { return (bytes, []) }
        let baseline = Loader.load(bytes)
        func parses(_ b: [UInt8]) -> Bool {
            let loaded = Loader.load(b)
            return loaded.decodable && loaded.root != nil && loaded.diagnostics.count <= baseline.diagnostics.count
        }
        // All at once; when that does not parse, each half in turn on top of what is kept, down
        // to the fixes that break the file: a few parses for a few bad fixes among many.
        var kept: [(index: Int, edits: [ByteEdit])] = []
        var result = bytes
        func add(_ candidates: ArraySlice<(index: Int, edits: [ByteEdit])>) {
            guard !candidates.isEmpty else { return }
            let attempt = splice(bytes, (kept + candidates).flatMap(\.edits))
            if parses(attempt) {
                kept += candidates
                result = attempt
            } else if candidates.count > 1 {
                let middle = candidates.startIndex + candidates.count / 2
                add(candidates[..<middle])
                add(candidates[middle...])
            }
        }
        add(taken[...])
        return (result, kept.map(\.index).sorted())
    }

    // MARK: - bytes

    package struct ByteEdit: Equatable {
        package var lower: Int
        package var upper: Int
        package var text: [UInt8]
    }

    /// A fix's edits as byte ranges, in order; nil when an edit names no position of the text or
    /// its edits overlap each other.
    package static func byteEdits(_ fix: Fix, in text: LineIndex) -> [ByteEdit]? {
        guard !fix.edits.isEmpty else { return nil }
        var out: [ByteEdit] = []
        for edit in fix.edits {
            guard let lower = text.offset(of: edit.span.start), let upper = text.offset(of: edit.span.end),
                  lower <= upper else { return nil }
            out.append(ByteEdit(lower: lower, upper: upper, text: Array(edit.text.utf8)))
        }
        out.sort { $0.lower != $1.lower ? $0.lower < $1.lower : $0.upper < $1.upper }
        for i in out.indices.dropFirst() where conflict(out[i - 1], out[i]) { return nil }
        return out
    }

    static func overlaps(_ a: [ByteEdit], _ b: [ByteEdit]) -> Bool {
        a.contains { x in b.contains { y in conflict(x, y) } }
    }

    /// Two edits conflict when their ranges share a byte, or when they start at one place (the
    /// order of two insertions there would be a guess).
    static func conflict(_ x: ByteEdit, _ y: ByteEdit) -> Bool {
        (x.lower < y.upper && y.lower < x.upper) || x.lower == y.lower
    }

    /// `bytes` with non-conflicting edits made, every other byte as it was.
    static func splice(_ bytes: [UInt8], _ edits: [ByteEdit]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.count })
        var at = 0
        for edit in edits.sorted(by: { $0.lower < $1.lower }) {
            out += bytes[at..<edit.lower]
            out += edit.text
            at = edit.upper
        }
        out += bytes[at...]
        return out
    }
}

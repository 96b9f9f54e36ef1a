import PolicySource

/// Where each part of an effective policy was written: the child and the parents it extends.
///
/// The merged tree is one tree of ordinary nodes whose spans stand in one line space that holds
/// every file of the chain one after the other, as a compiler's source manager numbers every
/// buffer it loaded in one range (Clang's `SourceLocation`): the child keeps its own lines
/// (1...n, so a file without parents, and every finding in the child itself, reads as before),
/// each parent is moved past the files before it. The decoder, the rules and the waivers run
/// unchanged on that tree; `locate` gives a position back its file and line. Nodes stay as small
/// as they are: a file per node would have made every node of every plain policy larger.
public struct Inheritance: Sendable {
    public struct Part: Sendable {
        /// The path as findings name it: the child's as given, a parent's joined to it.
        public var file: String
        /// What is added to the file's lines in the shared line space (0 for the child).
        var offset: Int
        /// The file's bytes: findings in a parent quote its lines.
        public var bytes: [UInt8]
    }

    /// The child first, then each parent in the order it was read.
    public private(set) var parts: [Part]

    /// The child's path (findings in a parent name it: "inherited by …").
    public var child: String { parts[0].file }

    /// The files of the chain, each once, the child first.
    public var files: [String] {
        var seen = Set<String>()
        return parts.map(\.file).filter { seen.insert($0).inserted }
    }

    init(child: String, bytes: [UInt8]) {
        parts = [Part(file: child, offset: 0, bytes: bytes)]
    }

    /// The first line past every part so far (a line of slack after each: libyaml may place the
    /// end of a stream one line past the text's last).
    var nextOffset: Int {
        guard let last = parts.last else { return 0 }
        return last.offset + LineIndex(last.bytes).lineCount + 2
    }

    mutating func add(file: String, bytes: [UInt8]) -> Int {
        let offset = nextOffset
        parts.append(Part(file: file, offset: offset, bytes: bytes))
        return offset
    }

    /// The part a line of the shared line space belongs to.
    func part(of line: Int) -> Part {
        parts.last { $0.offset < line } ?? parts[0]
    }

    /// The file and the position in it of a span of the merged tree.
    public func locate(_ span: Span) -> (file: String, span: Span) {
        let part = part(of: span.start.line)
        return (part.file, Self.shifted(span, by: -part.offset))
    }

    /// Whether a span was written in the child itself.
    public func isInChild(_ span: Span) -> Bool {
        parts.count < 2 || span.start.line < parts[1].offset && span.end.line < parts[1].offset
    }

    /// The bytes of a file of the chain, for quoting a finding's line.
    public func source(of file: String) -> [UInt8]? {
        parts.first { $0.file == file }?.bytes
    }

    static func shifted(_ span: Span, by lines: Int) -> Span {
        guard lines != 0 else { return span }
        return Span(start: Mark(line: span.start.line + lines, column: span.start.column),
                    end: Mark(line: span.end.line + lines, column: span.end.column))
    }

    /// Each finding placed in the file it was found in: one in a parent names the parent's file
    /// and line and says for which child it was found, and loses its fix (a fix of the child's
    /// lint does not edit another file); one in the child keeps a fix only while every edit of it
    /// stays in the child (an edit made beside a parent's entries would land elsewhere).
    func relocate(_ diagnostics: inout [Diagnostic]) {
        for i in diagnostics.indices {
            relocate(&diagnostics[i])
        }
        diagnostics.sortForReport()
    }

    private func relocate(_ d: inout Diagnostic) {
        for j in d.related.indices where d.related[j].file == child {
            (d.related[j].file, d.related[j].span) = locate(d.related[j].span)
        }
        if let waived = d.waived { d.waived?.span = locate(waived.span).span }
        if isInChild(d.span) {
            if let fix = d.fix, !fix.edits.allSatisfy({ isInChild($0.span) }) { d.fix = nil }
            return
        }
        (d.file, d.span) = locate(d.span)
        d.message += " (inherited by \(child))"
        d.fix = nil
    }
}

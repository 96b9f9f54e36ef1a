import PolicySource

extension FixEditor {
    /// Moves a block entry (its key's line to its value's last, comments inside it kept) into
    /// `target`, a block mapping, re-indented to its entries, placed by `order`. One edit when the
    /// entry stands where it is inserted. Nil when the entry does not start its line or a line of
    /// it is indented less than its key.
    func moveEntry(_ entry: Entry, into target: Node, order: [String]) -> [TextEdit]? {
        guard text.startsItsLine(entry.keySpan.start), !isFlow(target) else { return nil }
        let first = entry.keySpan.start.line, last = lastLine(of: entry.value)
        let cut = entry.keySpan.start.column - 1
        var lines: [String] = []
        for n in first...last {
            guard let line = text.text(ofLine: n) else { return nil }
            let blank = line.allSatisfy { $0 == " " }
            guard blank || line.prefix(cut).allSatisfy({ $0 == " " }) else { return nil }
            lines.append(blank ? "" : String(line.dropFirst(cut)))
        }
        // A blank line on both sides: one of them goes with the entry.
        let blankAround = first > 1 && text.text(ofLine: first - 1)?.allSatisfy({ $0 == " " }) == true
            && text.text(ofLine: last + 1)?.allSatisfy({ $0 == " " }) == true && last + 1 < text.lineCount
        let end = last + (blankAround ? 2 : 1)
        let removed = Span(start: Mark(line: first, column: 1),
                           end: end <= text.lineCount ? Mark(line: end, column: 1) : text.mark(at: text.bytes.count))
        guard let inserted = insertEntry(entry.key, lines: lines, flow: "", into: target, order: order),
              inserted.count == 1 else { return nil }
        if inserted[0].span.start == removed.start { return [TextEdit(removed, inserted[0].text)] }
        return [inserted[0], TextEdit(removed, "")]
    }
}

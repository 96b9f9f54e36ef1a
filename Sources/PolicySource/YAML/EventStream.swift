internal import CYaml

/// One libyaml event as the loader reads it: plain values, its texts pointing into libyaml's
/// event, which its chunk keeps until `EventChunk.empty()`.
struct RawEvent {
    enum Kind: UInt8 {
        case streamStart, streamEnd, documentStart, documentEnd, alias, scalar
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd, other
    }

    var kind: Kind
    var style: ScalarStyle
    var hasAnchor: Bool
    /// A collection written in flow style (`{…}`, `[…]`).
    var isFlow: Bool
    var span: Span
    /// A scalar's value (`count` bytes), and the tag as libyaml resolved it, if there is one.
    var text: UnsafePointer<UInt8>?
    var count: Int
    var tag: UnsafePointer<CChar>?
    var hasTag: Bool { tag != nil }
}

/// A run of events, and how the stream ended if it ended after them.
///
/// The events are libyaml's own, parsed into place and read where they are, not copied;
/// `empty()` deletes them.
struct EventChunk {
    enum End {
        /// libyaml's stream ended.
        case finished
        /// libyaml refused the input here; no event follows.
        case failed(Diagnostic)
    }

    /// Holds the events, and deletes those still there when the chunk goes (a reader that
    /// stopped early).
    private final class Store {
        let capacity: Int
        let events: UnsafeMutablePointer<yaml_event_t>
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            events = .allocate(capacity: max(capacity, 1))
        }

        func deleteAll() {
            for i in 0..<count { yaml_event_delete(events + i) }
            count = 0
        }

        deinit {
            deleteAll()
            events.deallocate()
        }
    }

    private var store: Store
    var end: End?
    /// How libyaml's marks become ours.
    var marks = YAMLMarks(nil)

    /// Room for `capacity` events.
    init(capacity: Int = 0) {
        store = Store(capacity: capacity)
    }

    var count: Int { store.count }
    var capacity: Int { store.capacity }

    /// Deletes the events (their texts with them): nothing read from them may be used after.
    mutating func empty() {
        store.deleteAll()
        end = nil
    }

    /// Parses the next event into the chunk and gives its type; nil when libyaml refuses the
    /// input (nothing added).
    fileprivate mutating func parse(_ parser: UnsafeMutablePointer<yaml_parser_t>) -> yaml_event_type_t? {
        precondition(store.count < store.capacity, "an event chunk is full")
        let slot = store.events + store.count
        guard yaml_parser_parse(parser, slot) == 1 else { return nil }
        store.count += 1
        return slot.pointee.type
    }

    /// Event `i`, read in place (a copy of libyaml's event is a hundred bytes).
    func event(_ i: Int) -> RawEvent {
        let e = store.events + i
        let kind: RawEvent.Kind
        var style = ScalarStyle.plain
        var anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?
        var text: UnsafeMutablePointer<yaml_char_t>?, count = 0
        var isFlow = false
        switch e.pointee.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT: kind = .alias
        case YAML_SCALAR_EVENT:
            kind = .scalar
            style = EventSource.style(e.pointee.data.scalar.style)
            text = e.pointee.data.scalar.value
            count = e.pointee.data.scalar.length
            (anchor, tag) = (e.pointee.data.scalar.anchor, e.pointee.data.scalar.tag)
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            (anchor, tag) = (e.pointee.data.sequence_start.anchor, e.pointee.data.sequence_start.tag)
            isFlow = e.pointee.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            (anchor, tag) = (e.pointee.data.mapping_start.anchor, e.pointee.data.mapping_start.tag)
            isFlow = e.pointee.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        default: kind = .other
        }
        return RawEvent(kind: kind, style: style, hasAnchor: anchor != nil, isFlow: isFlow,
                        span: Span(start: marks.mark(e.pointee.start_mark), end: marks.mark(e.pointee.end_mark)),
                        text: UnsafePointer(text), count: count,
                        tag: tag.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
    }

    /// Whether event `i` ends a collection (an empty one is made at once, see `EventReader.handle`).
    func closes(_ i: Int) -> Bool {
        let type = store.events[i].type
        return type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT
    }

    /// A scalar's value.
    func value(_ event: RawEvent) -> String {
        guard let text = event.text else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: event.count), as: UTF8.self)
    }

    /// The tag, if the event has one.
    func tag(_ event: RawEvent) -> String? {
        event.tag.map { String(cString: $0) }
    }
}

/// Bytes → libyaml events, in chunks. The only code that sees libyaml's parser.
enum EventSource {
    /// Parses `bytes` and hands the events to `deliver` in chunks of at most `chunkSize` (the
    /// last one with `end` set). `deliver` returns false to stop parsing.
    static func parse(_ bytes: [UInt8], chunkSize: Int, deliver: (inout EventChunk) -> Bool) {
        // On the heap: libyaml's string reader points back into the parser, so it must not move.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        parser.initialize(to: yaml_parser_t())
        var chunk = EventChunk(capacity: chunkSize)
        let marks = YAMLMarks(bytes)
        chunk.marks = marks
        guard yaml_parser_initialize(parser) == 1 else {
            chunk.end = .failed(Loader.refused(.inputLimit, at: .start,
                                               "the YAML parser could not start (out of memory)").diagnostics[0])
            _ = deliver(&chunk)
            return
        }
        defer { yaml_parser_delete(parser) }
        // libyaml wants a pointer even for empty input; it reads `count` bytes and no further.
        let input = bytes.isEmpty ? [0] : bytes
        input.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            while true {
                guard let type = chunk.parse(parser) else {
                    chunk.end = .failed(syntaxError(parser.pointee, in: bytes, marks: marks))
                    _ = deliver(&chunk)
                    return
                }
                if type == YAML_STREAM_END_EVENT {
                    chunk.end = .finished
                    _ = deliver(&chunk)
                    return
                }
                if chunk.count >= chunkSize {
                    guard deliver(&chunk) else { return }
                    chunk.empty()
                }
            }
        }
    }

    static func syntaxError(_ parser: yaml_parser_t, in bytes: [UInt8], marks: YAMLMarks) -> Diagnostic {
        var message = parser.problem.map { String(cString: $0) } ?? "the file is not well-formed YAML"
        let at: Mark
        var help: String?
        if parser.error == YAML_READER_ERROR {
            at = Encoding.mark(at: parser.problem_offset, in: bytes)
            if parser.problem_value >= 0 && message.hasPrefix("control characters") {
                message += " (found U+\(hex(parser.problem_value)))"
            }
        } else {
            at = marks.mark(parser.problem_mark)
            // libyaml says "found character that cannot start any token" (or that a tab "violates
            // indentation") at a tab that indents a line: say what to do instead, and do it.
            let text = LineIndex(bytes)
            if let offset = text.offset(of: at), offset < bytes.count, bytes[offset] == 0x09,
               let line = text.text(ofLine: at.line), line.unicodeScalars.prefix(at.column - 1).allSatisfy({ $0 == " " || $0 == "\t" }) {
                let advice = IndentationAdvice.tabFix(text, first: at.line)
                return Diagnostic(span: Span(start: at, end: Mark(line: at.line, column: at.column + 1)), severity: .error,
                                  rule: RuleID.yamlSyntax,
                                  message: line.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" })
                                      ? "a tab stands on this blank line; YAML indents with spaces only"
                                      : "a tab indents this line; YAML indents with spaces only",
                                  help: advice.map { $0.blank ? "delete the tab: the line holds nothing else"
                                      : "replace the tab with spaces: the line starts at column \($0.column), as its siblings" }
                                      ?? "replace the tab with spaces, as many as the lines around it use",
                                  fix: advice?.fix)
            }
            // A key indented deeper than the line above reads as more of that line's value.
            if message.hasPrefix("mapping values are not allowed") { help = IndentationAdvice.deeperKeyHelp(text, at: at) }
            // A key between two columns ends one mapping without starting another.
            if message.hasPrefix("did not find expected key") { help = IndentationAdvice.betweenColumnsHelp(text, at: at) }
            if let context = parser.context {
                let where_ = marks.mark(parser.context_mark)
                message += " (\(String(cString: context)) at line \(where_.line), column \(where_.column))"
            }
        }
        return Diagnostic(span: Span(at), severity: .error, rule: RuleID.yamlSyntax, message: message, help: help)
    }

    /// Whether libyaml reads `bytes` to the end without an error (a fix's result, checked before
    /// it is offered).
    static func isWellFormed(_ bytes: [UInt8]) -> Bool {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        parser.initialize(to: yaml_parser_t())
        guard yaml_parser_initialize(parser) == 1 else { return false }
        defer { yaml_parser_delete(parser) }
        let input = bytes.isEmpty ? [0] : bytes
        return input.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else { return false }
                let type = event.type
                yaml_event_delete(&event)
                if type == YAML_STREAM_END_EVENT { return true }
            }
        }
    }

    static func hex(_ value: Int32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }


    static func style(_ s: yaml_scalar_style_t) -> ScalarStyle {
        switch s {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}

/// libyaml's marks made ours. libyaml also breaks lines at NEL, LS and PS, which editors and our
/// reports do not (issue 48). Each of libyaml's lines lies within one of the editor's (every
/// break of the editor's is one of libyaml's), so a mark becomes ours by where its line starts in
/// the editor's lines, a column added. Other texts (nearly all) have the same marks both ways.
struct YAMLMarks {
    /// Where each of libyaml's lines starts, as our mark; nil for the same marks either way.
    private let starts: [Mark]?
    /// The end of the input, as our mark: where libyaml's marks past its last line stand.
    private let end: Mark

    init(_ bytes: [UInt8]?) {
        // Only a byte past ASCII can start a break libyaml counts and the editor does not.
        guard let bytes, bytes.indices.contains(where: { bytes[$0] >= 0x80 && LineIndex.breakWidth(bytes, at: $0, .yaml) > 0 }) else {
            starts = nil
            end = Mark(line: 1, column: 1)
            return
        }
        let yaml = LineIndex(bytes, breaks: .yaml), editor = LineIndex(bytes)
        starts = (1...yaml.lineCount).map { editor.mark(at: yaml.range(ofLine: $0)!.lowerBound) }
        end = editor.mark(at: bytes.count)
    }

    /// A file is at most 1 MiB (`Loader.maxBytes`): its lines and columns fit in 32 bits.
    func mark(_ m: yaml_mark_t) -> Mark {
        let mark = Mark(line: Int(truncatingIfNeeded: m.line) &+ 1, column: Int(truncatingIfNeeded: m.column) &+ 1)
        guard let starts, mark.line >= 1 else { return mark }
        // The stream's end can stand on a line after the last that holds text.
        guard mark.line <= starts.count else { return end }
        let start = starts[mark.line - 1]
        return Mark(line: start.line, column: start.column + mark.column - 1)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import CYaml

/// One libyaml event as the loader reads it: plain values only (no reference to count or free),
/// its texts as ranges of its chunk's `text`. The thread that parses does nothing more than copy
/// them there: making Strings is left to the thread that builds the tree, which has less to do.
struct RawEvent {
    enum Kind: UInt8 {
        case streamStart, streamEnd, documentStart, documentEnd, alias, scalar
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd, other
    }

    var kind: Kind
    var style: ScalarStyle
    var hasAnchor: Bool
    var hasTag: Bool
    var span: Span
    /// A scalar's value, then the tag as libyaml resolved it (if `hasTag`), in the chunk's `text`.
    var textStart: UInt32
    var textCount: UInt32
    var tagCount: UInt32
}

/// A run of events, and how the stream ended if it ended after them.
struct EventChunk {
    enum End {
        /// libyaml's stream ended.
        case finished
        /// libyaml refused the input here; no event follows.
        case failed(Diagnostic)
    }

    var events: [RawEvent] = []
    /// The events' texts, one after the other.
    var text: [UInt8] = []
    var end: End?

    mutating func empty() {
        events.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        end = nil
    }

    /// A scalar's value.
    func value(_ event: RawEvent) -> String {
        let start = Int(event.textStart)
        return text.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + Int(event.textCount)]), as: UTF8.self)
        }
    }

    /// The tag, if the event has one.
    func tag(_ event: RawEvent) -> String? {
        guard event.hasTag else { return nil }
        let start = Int(event.textStart) + Int(event.textCount)
        return String(decoding: text[start..<start + Int(event.tagCount)], as: UTF8.self)
    }
}

/// Bytes → libyaml events, in chunks. The only code that sees libyaml's parser.
enum EventSource {
    /// Parses `bytes` and hands the events to `deliver` in chunks of at most `chunkSize` (the
    /// last one with `end` set). `deliver` returns false to stop parsing; it may keep the chunk's
    /// storage and give back another (see `EventPipe`).
    static func parse(_ bytes: [UInt8], chunkSize: Int, deliver: (inout EventChunk) -> Bool) {
        // On the heap: libyaml's string reader points back into the parser, so it must not move.
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        parser.initialize(to: yaml_parser_t())
        var chunk = EventChunk()
        chunk.events.reserveCapacity(chunkSize)
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
                var event = yaml_event_t()
                guard yaml_parser_parse(parser, &event) == 1 else {
                    chunk.end = .failed(syntaxError(parser.pointee, in: bytes))
                    _ = deliver(&chunk)
                    return
                }
                let kind = append(&event, to: &chunk)
                yaml_event_delete(&event)
                if kind == .streamEnd {
                    chunk.end = .finished
                    _ = deliver(&chunk)
                    return
                }
                if chunk.events.count >= chunkSize {
                    guard deliver(&chunk) else { return }
                    chunk.empty()
                }
            }
        }
    }

    /// `event` in place (inout: a copy of libyaml's event is a hundred bytes an event).
    private static func append(_ event: inout yaml_event_t, to chunk: inout EventChunk) -> RawEvent.Kind {
        let kind: RawEvent.Kind
        var style = ScalarStyle.plain
        var anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?
        let textStart = UInt32(truncatingIfNeeded: chunk.text.count)
        var textCount: UInt32 = 0, tagCount: UInt32 = 0
        switch event.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT: kind = .alias
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            kind = .scalar
            style = Self.style(scalar.style)
            // A scalar is at most the file (1 MiB), so its length and offset fit in 32 bits.
            textCount = UInt32(truncatingIfNeeded: scalar.length)
            chunk.text.append(contentsOf: UnsafeBufferPointer(start: scalar.value, count: scalar.length))
            (anchor, tag) = (scalar.anchor, scalar.tag)
        case YAML_SEQUENCE_START_EVENT:
            kind = .sequenceStart
            (anchor, tag) = (event.data.sequence_start.anchor, event.data.sequence_start.tag)
        case YAML_MAPPING_START_EVENT:
            kind = .mappingStart
            (anchor, tag) = (event.data.mapping_start.anchor, event.data.mapping_start.tag)
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        default: kind = .other
        }
        if let tag {
            let count = strlen(tag)
            chunk.text.append(contentsOf: UnsafeBufferPointer(start: tag, count: count))
            tagCount = UInt32(truncatingIfNeeded: count)
        }
        chunk.events.append(RawEvent(kind: kind, style: style, hasAnchor: anchor != nil, hasTag: tag != nil,
                                     span: Span(start: mark(event.start_mark), end: mark(event.end_mark)),
                                     textStart: textStart, textCount: textCount, tagCount: tagCount))
        return kind
    }

    static func syntaxError(_ parser: yaml_parser_t, in bytes: [UInt8]) -> Diagnostic {
        var message = parser.problem.map { String(cString: $0) } ?? "the file is not well-formed YAML"
        let at: Mark
        if parser.error == YAML_READER_ERROR {
            at = Encoding.mark(at: parser.problem_offset, in: bytes)
            if parser.problem_value >= 0 && message.hasPrefix("control characters") {
                message += " (found U+\(hex(parser.problem_value)))"
            }
        } else {
            at = mark(parser.problem_mark)
            // libyaml says "found character that cannot start any token" (or that a tab "violates
            // indentation") at a tab that indents a line: say what to do instead.
            let text = SourceMap(bytes)
            if let offset = text.offset(of: at), offset < bytes.count, bytes[offset] == 0x09,
               let line = text.line(at.line), line.unicodeScalars.prefix(at.column - 1).allSatisfy({ $0 == " " || $0 == "\t" }) {
                return Diagnostic(span: Span(start: at, end: Mark(line: at.line, column: at.column + 1)), severity: .error,
                                  rule: RuleID.yamlSyntax.rawValue,
                                  message: "a tab indents this line; YAML indents with spaces only",
                                  help: "replace the tab with spaces, as many as the lines around it use")
            }
            if let context = parser.context {
                let where_ = mark(parser.context_mark)
                message += " (\(String(cString: context)) at line \(where_.line), column \(where_.column))"
            }
        }
        return Diagnostic(span: Span(at), severity: .error, rule: RuleID.yamlSyntax.rawValue, message: message)
    }

    static func hex(_ value: Int32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A file is at most 1 MiB (`Loader.maxBytes`): its lines and columns fit in 32 bits.
    static func mark(_ m: yaml_mark_t) -> Mark {
        Mark(line: Int(truncatingIfNeeded: m.line) &+ 1, column: Int(truncatingIfNeeded: m.column) &+ 1)
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

/// Hands chunks of events from the thread that parses to the thread that builds the tree: a
/// queue of at most `depth` full chunks, so a fast parser never holds more than that many ahead,
/// and the emptied chunks come back for their storage to be reused.
final class EventPipe: @unchecked Sendable {
    // Every field below is read and written only with `lock` held.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var ready: [EventChunk] = []
    private var head = 0
    private var spare: [EventChunk] = []
    private var stopped = false
    private let depth: Int

    init(depth: Int) {
        self.depth = depth
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// The parser's side: queues `chunk` and gives it an emptied one in its place. False once
    /// the reader has stopped (nothing more is wanted).
    func send(_ chunk: inout EventChunk) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while ready.count - head >= depth && !stopped { pthread_cond_wait(changed, lock) }
        guard !stopped else { return false }
        var next = spare.popLast() ?? EventChunk()
        swap(&next, &chunk)
        ready.append(next)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The reader's side: the next chunk, waiting for it; `done` is the chunk it has finished
    /// with, given back for its storage.
    func receive(returning done: consuming EventChunk?) -> EventChunk {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if var done = done.take() {
            done.empty()
            spare.append(done)
        }
        while ready.count == head { pthread_cond_wait(changed, lock) }
        let chunk = ready[head]
        ready[head] = EventChunk()
        head += 1
        if head == ready.count {
            ready.removeAll(keepingCapacity: true)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return chunk
    }

    /// The reader wants no more: a waiting or later `send` returns false.
    func stop() {
        pthread_mutex_lock(lock)
        stopped = true
        ready.removeAll()
        head = 0
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }
}

/// Runs `body` on a thread of its own; `join` waits for it to end.
struct Worker: ~Copyable {
    private var thread: pthread_t

    /// nil when no thread could be made (the caller then does the work itself).
    init?(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return nil
        }
        #if canImport(Darwin)
        self.thread = thread!
        #else
        self.thread = thread
        #endif
    }

    consuming func join() {
        pthread_join(thread, nil)
    }
}

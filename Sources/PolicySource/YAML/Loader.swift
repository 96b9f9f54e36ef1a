/// What the loader made of a file: the tree (when there is one to decode) and its findings.
public struct LoadResult: Sendable {
    /// The document's root; nil for an empty stream, or when the file could not be read whole.
    public var root: Node?
    /// False after a syntax error or a broken limit: then nothing more is checked.
    public var decodable: Bool
    public var diagnostics: [Diagnostic]
    /// Findings not kept because the file already had `Loader.maxFindings` (see `Checker`).
    public var suppressed = 0
}

/// Bytes → YAML tree with positions, from libyaml's events (`EventSource`).
///
/// Every limit is enforced while events stream in, so hostile input never builds a large tree:
/// size is checked before parsing, nesting depth at each start event, and no alias is expanded.
public enum Loader {
    public static let maxBytes = 1 << 20
    public static let maxDepth = 32
    /// Findings kept per file: a real policy has a few dozen at most, and a file of a hundred
    /// thousand repeated keys must not cost a hundred thousand findings in memory and output.
    public static let maxFindings = 1000
    /// Collections nested deeper than this are kept without their contents (their kind and span
    /// only). The language reads nothing below depth 5 (root, `retry`, `profiles`, a profile, a
    /// value), and a nest of tens of thousands of `[[[…]]]` to depth 32 would hold an array per
    /// level. Duplicate keys are still found at every depth: a mapping's keys are
    /// compared while it is open, and only its finished contents are let go.
    public static let keptDepth = 8

    /// `reading`: the shape its reader reads the document as (`Language.root` for a policy), or
    /// nil to keep everything. A collection that reader never looks into (the value of a key the
    /// shape does not have, a list where a number belongs) is kept with its kind and span only:
    /// a flow one (`{…}`, `[…]`) without contents, a block one with its last entry or item, from
    /// which an editor finds its last line. A repeated key in it is still found. So a file of
    /// tiny lists under an unknown key, or of profiles whose values nest, holds no tree of them.
    public static func load(_ bytes: [UInt8], reading: Shape? = nil) -> LoadResult {
        load(bytes, chunk: 256, reading: reading)
    }

    /// The whole tree, every collection with its contents at every depth (up to `maxDepth`):
    /// for a reader that writes the file out again (`policyc fmt`), which must lose nothing.
    public static func loadWhole(_ bytes: [UInt8]) -> LoadResult {
        load(bytes, chunk: 256, reading: nil, keptDepth: maxDepth)
    }

    /// `chunk`: how many events libyaml parses before the tree takes them (tests vary it).
    static func load(_ bytes: [UInt8], chunk: Int, reading: Shape? = nil, keptDepth: Int = Loader.keptDepth) -> LoadResult {
        if bytes.count > maxBytes {
            // Readers stop one byte past the limit (a 50 MB input is never held whole), so exactly
            // that many bytes is a lower bound, not the size.
            let size = bytes.count == maxBytes + 1 ? "has at least \(bytes.count) bytes" : "is \(describeSize(bytes.count))"
            return refused(.inputLimit, at: .start,
                "the file \(size), over the limit of 1 MiB (\(maxBytes) bytes) for a policy file")
        }
        // With the encoding set, libyaml takes a BOM for a character of line 1: every column after
        // it is one off, and a block mapping's second key looks dedented. A BOM is not content.
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var run = EventReader(bytes: content, reading: reading, keptDepth: keptDepth)
        return run.read(chunk: chunk, refusing: { Encoding.problem(in: bytes) })
    }

    static func refused(_ rule: RuleID, at mark: Mark, _ message: String) -> LoadResult {
        LoadResult(root: nil, decodable: false, diagnostics: [
            Diagnostic(span: Span(mark), severity: .error, rule: rule, message: message),
        ])
    }

    /// `1048577 bytes`, and in MiB as well once that reads better: `52428800 bytes (50.0 MiB)`.
    static func describeSize(_ count: Int) -> String {
        // Parenthesised: in Swift `>>` binds tighter than `*`.
        let tenths = (count * 10) >> 20
        return count >= 2 << 20 ? "\(count) bytes (\(tenths / 10).\(tenths % 10) MiB)" : "\(count) bytes"
    }
}

/// One frame of the open collections while events stream in.
private struct Frame {
    var isMapping: Bool
    var isFlow: Bool
    /// What the reader reads this collection as; nil when it reads no more than its kind and
    /// span (then, with `EventReader.reading` set, its contents are let go: see `Loader.load`).
    var shape: Shape?
    var start: Mark
    /// Collect nothing: this subtree is a refused key, a duplicate's value or a merge key's value.
    var discard: Bool
    /// The entries of a mapping or the items of a list so far, handed over whole when it ends.
    /// Each frame has its own, with room for a policy's usual few from the start: collecting them
    /// on one stack for all frames cost a copy out of it and a removal from it per collection.
    var entries: [Entry] = []
    var items: [Node] = []
    /// Where each key of `entries` stands, by its bytes (see `sameText`), made only once a
    /// mapping is large (see `firstSpan`).
    var seen: [ExactText: Span] = [:]
    var pendingKey: String?
    var pendingKeySpan = Span(.start)
    var skipValue = false

    /// True when the next node completes a `key: value` pair rather than starting one.
    var expectsValue: Bool { isMapping && pendingKey != nil }
}

private struct EventReader {
    let bytes: [UInt8]
    var stack: [Frame] = []
    var root: Node?
    var diagnostics: [Diagnostic] = []
    /// The first finding of each unsupported construct, and how many more there were: a file full
    /// of aliases gets one clear finding, not thousands.
    var unsupported: [String: (index: Int, more: Int)] = [:]
    var documents = 0
    /// Past the start of a second document: its events are read only so that a syntax error
    /// in it is still found (the parser's, at the end of its chunk), never kept.
    var pastFirstDocument = false
    var suppressed = 0
    /// The event being handled, by its index in its chunk.
    var eventIndex = 0
    /// By depth, the arrays the last collection that ended there filled, emptied with their room
    /// kept: the next collection at that depth fills one of them and hands over an exact copy
    /// (see `handOver`).
    var spareEntries: [[Entry]] = []
    var spareItems: [[Node]] = []

    /// See `Loader.load(_:reading:)`.
    let reading: Shape?
    /// Whether unread collections are let go: only when there is a shape to say what is read.
    var pruning: Bool { reading != nil }

    /// See `Loader.keptDepth`.
    let keptDepth: Int

    init(bytes: [UInt8], reading: Shape?, keptDepth: Int) {
        self.bytes = bytes
        self.reading = reading
        self.keptDepth = keptDepth
    }

    /// Parses and builds the tree, a chunk of events at a time (chunks only batch the calls; a
    /// small one stays in the cache). When `problem` finds the bytes unfit to read, the file is
    /// refused with it alone.
    mutating func read(chunk size: Int, refusing problem: () -> Encoding.Problem?) -> LoadResult {
        var decodable = true
        if let found = problem() { return Loader.refused(.inputLimit, at: found.mark, found.message) }
        EventSource.parse(bytes, chunkSize: size) { chunk in
            consume(chunk, decodable: &decodable)
        }
        finishUnsupportedCounts()
        return LoadResult(root: decodable ? root : nil, decodable: decodable, diagnostics: diagnostics,
                          suppressed: suppressed)
    }

    /// The chunk's events, in order; false once nothing more is wanted (the stream ended, or
    /// reading stopped), with `decodable` cleared if it stopped on an error.
    mutating func consume(_ chunk: borrowing EventChunk, decodable: inout Bool) -> Bool {
        var i = 0
        while i < chunk.count {
            eventIndex = i
            switch handle(chunk.event(i), in: chunk) {
            case .goOn: i += 1
            case .goOnPastNext: i += 2
            case .done: return false
            case .abort:
                decodable = false
                return false
            }
        }
        switch chunk.end {
        case nil: return true
        case .finished: return false
        case .failed(let diagnostic):
            diagnostics.append(diagnostic)
            decodable = false
            return false
        }
    }

    /// `goOnPastNext`: the next event was taken with this one.
    enum Step { case goOn, goOnPastNext, done, abort }

    mutating func handle(_ event: RawEvent, in chunk: borrowing EventChunk) -> Step {
        if pastFirstDocument { return event.kind == .streamEnd ? .done : .goOn }
        switch event.kind {
        case .streamStart, .documentEnd, .other:
            return .goOn
        case .streamEnd:
            return .done
        case .documentStart:
            documents += 1
            if documents > 1 {
                report(.yamlUnsupported, at: event.span.start,
                       "a policy file holds one YAML document; a second one starts here")
                pastFirstDocument = true
            }
            return .goOn
        case .alias:
            alias(event)
            return .goOn
        case .scalar:
            checkProperties(of: event, in: chunk)
            let text = chunk.value(event)
            if let top = stack.indices.last, stack[top].isMapping, !stack[top].discard, stack[top].pendingKey == nil {
                // A key: kept as text, never made a node.
                takeKey(text, event.style, span: event.span, frame: top)
            } else {
                deliver(Node(.scalar(text, event.style), span: event.span))
            }
            return .goOn
        case .sequenceStart, .mappingStart:
            return startCollection(event, in: chunk)
        case .sequenceEnd, .mappingEnd:
            return endCollection(at: event.span.end)
        }
    }

    mutating func alias(_ event: RawEvent) {
        if isSkipping {
            // Part of something already refused.
        } else if let top = stack.indices.last, stack[top].isMapping, stack[top].pendingKey == nil {
            reportOnce("key", at: event.span.start, "a key must be a plain word, not an alias")
        } else {
            reportOnce("anchor", at: event.span.start,
                       "anchors and aliases are not supported in policy files; write the value out in full")
        }
        deliver(Node(.reported, span: event.span))
    }

    mutating func startCollection(_ event: RawEvent, in chunk: borrowing EventChunk) -> Step {
        let start = event.span.start
        let isMapping = event.kind == .mappingStart
        if stack.count >= Loader.maxDepth {
            report(.inputLimit, at: start, "nesting is deeper than \(Loader.maxDepth) levels, the limit for a policy file")
            return .abort
        }
        checkProperties(of: event, in: chunk)
        var discard = isSkipping
        if let top = stack.indices.last, stack[top].isMapping, !stack[top].discard, stack[top].pendingKey == nil {
            reportOnce("key", at: start, "a key must be a plain word, not a \(isMapping ? "mapping" : "list")")
            discard = true
        }
        // An empty collection (`{}`, `[]`) is made at once, its end read ahead in the chunk:
        // it needs no frame pushed and popped (files of tens of thousands of `{}` profiles).
        if eventIndex + 1 < chunk.count, chunk.closes(eventIndex + 1) {
            let span = Span(start: start, end: chunk.event(eventIndex + 1).span.end)
            deliver(Node(discard ? .reported : isMapping ? .mapping([]) : .sequence([]), span: span))
            return .goOnPastNext
        }
        var frame = Frame(isMapping: isMapping, isFlow: event.isFlow, shape: pruning ? shapeOfNext(isMapping: isMapping) : nil,
                          start: start, discard: discard)
        let depth = stack.count
        if isMapping, depth < spareEntries.count { swap(&frame.entries, &spareEntries[depth]) }
        if !isMapping, depth < spareItems.count { swap(&frame.items, &spareItems[depth]) }
        stack.append(consume frame)
        return .goOn
    }

    mutating func endCollection(at end: Mark) -> Step {
        guard var frame = stack.popLast() else { return .abort }
        let span = Span(start: frame.start, end: end)
        let node: Node
        if frame.discard {
            node = Node(.reported, span: span)
        } else if stack.count >= keptDepth || (pruning && frame.shape == nil && frame.isFlow) {
            // Below what any reader of the tree looks at, or what this one does: the
            // collection without its contents.
            node = Node(frame.isMapping ? .mapping([]) : .sequence([]), span: span)
        } else if pruning && frame.shape == nil && frame.isMapping {
            // Unread, in block style: its last entry, whose last line is the mapping's (a
            // list keeps only its last item as it goes, in `deliver`).
            node = Node(.mapping(frame.entries.isEmpty ? [] : [frame.entries[frame.entries.count - 1]]), span: span)
        } else {
            node = Node(frame.isMapping ? .mapping(Self.handOver(&frame.entries)) : .sequence(Self.handOver(&frame.items)),
                        span: span)
        }
        let depth = stack.count
        if frame.isMapping { Self.keepSpare(&frame.entries, in: &spareEntries, at: depth) }
        else { Self.keepSpare(&frame.items, in: &spareItems, at: depth) }
        deliver(node)
        return .goOn
    }

    /// The shape the collection that starts now is read as (see `Frame.shape`): what its parent's
    /// shape says of the key it stands under or of its items, when that is a collection of its kind.
    func shapeOfNext(isMapping: Bool) -> Shape? {
        let expected: Shape?
        if let top = stack.indices.last {
            guard let parent = stack[top].shape else { return nil }
            if stack[top].isMapping {
                guard let key = stack[top].pendingKey else { return nil }
                expected = parent.valueShape(key)
            } else {
                expected = parent.itemShape
            }
        } else {
            expected = reading
        }
        switch expected {
        case .object?, .namedMap?: return isMapping ? expected : nil
        case .list?: return isMapping ? nil : expected
        // A list of paths is read as a list of strings.
        case .paths?: return isMapping ? nil : .list(.string, unique: true)
        default: return nil
        }
    }

    /// True while the events belong to something already refused, so they add no findings.
    var isSkipping: Bool {
        // By index: `stack.last` would copy the frame, and its arrays with it.
        guard let top = stack.indices.last else { return false }
        return stack[top].discard || (stack[top].expectsValue && stack[top].skipValue)
    }

    mutating func checkProperties(of event: RawEvent, in chunk: borrowing EventChunk) {
        guard event.hasAnchor || event.hasTag, !isSkipping else { return }
        if event.hasAnchor {
            reportOnce("anchor", at: event.span.start,
                       "anchors and aliases are not supported in policy files; write the value out in full")
        }
        if event.hasTag {
            // The tag's text is read only for the first message (a file may hold 60 000 tags).
            reportOnce("tag", at: event.span.start, {
                // libyaml hands over the resolved tag; show the `!!` shorthand people write.
                var text = chunk.tag(event) ?? ""
                if text.hasPrefix("tag:yaml.org,2002:") { text = "!!" + text.dropFirst("tag:yaml.org,2002:".count) }
                return "tags such as '\(printable(text))' are not supported; the key a value stands under gives its type"
            }())
        }
    }

    /// Takes `node` over (consuming: it is stored, and a borrowed node would be copied to be).
    mutating func deliver(_ node: consuming Node) {
        guard !stack.isEmpty else {
            if root == nil { root = node }
            return
        }
        let top = stack.count - 1
        if stack[top].discard { return }
        if !stack[top].isMapping {
            if pruning && stack[top].shape == nil {
                // Unread (see `Loader.load`): a flow list keeps no item, a block list its last.
                stack[top].items.removeAll(keepingCapacity: true)
                if stack[top].isFlow { return }
            }
            Self.makeRoom(&stack[top].items, fileSize: bytes.count)
            stack[top].items.append(node)
            return
        }
        // Taken out, not copied: the entry keeps it.
        guard let key = stack[top].pendingKey.take() else {
            // A key that is an alias or a collection (a scalar key went to `takeKey`), reported
            // when it started: drop the pair.
            stack[top].pendingKeySpan = node.span
            stack[top].pendingKey = ""
            stack[top].skipValue = true
            return
        }
        if !stack[top].skipValue {
            Self.makeRoom(&stack[top].entries, fileSize: bytes.count)
            stack[top].entries.append(Entry(key: key, keySpan: stack[top].pendingKeySpan, value: node))
        }
        stack[top].skipValue = false
    }

    /// Room for a collection's next entry or item. One of over `largeCollection` grows eightfold
    /// when full, not twofold: each growth copies the array into new memory, and the page faults
    /// of those copies are a large part of reading a file of many profiles. Room not yet
    /// filled is address space, not memory (no page of it is touched), and is never more than the
    /// file could fill: an entry or an item takes at least two bytes of it.
    /// (Static: a method of the reader, given its own stack's array, made Swift copy the stack.)
    @inline(__always)
    static func makeRoom<T>(_ array: inout [T], fileSize: Int) {
        let count = array.count
        guard count >= largeCollection, count == array.capacity else { return }
        array.reserveCapacity(max(count + 1, min(count * 8, fileSize / 2)))
    }

    static let largeCollection = 1024

    /// A collection's entries or items as the tree keeps them: a copy with no room to spare, the
    /// filled array left empty with its room for the next collection at its depth: a profile of
    /// five keys grows its array to room for eight, and thousands of them would hold that room
    /// never filled. A large collection hands over its array itself: copied, it would be
    /// in memory twice.
    @inline(__always)
    static func handOver<T>(_ array: inout [T]) -> [T] {
        let count = array.count
        // Empty (a `{}` whose end came in the next chunk): the room stays for the next.
        guard count > 0 else { return [] }
        guard count < largeCollection, count < array.capacity else {
            defer { array = [] }
            return array
        }
        let exact = [T](unsafeUninitializedCapacity: count) { copy, made in
            array.withUnsafeBufferPointer { copy.baseAddress!.initialize(from: $0.baseAddress!, count: count) }
            made = count
        }
        array.removeAll(keepingCapacity: true)
        return exact
    }

    /// Keeps an emptied array (see `handOver`) as the spare of its depth.
    @inline(__always)
    static func keepSpare<T>(_ array: inout [T], in spares: inout [[T]], at depth: Int) {
        guard array.capacity > 0 else { return }
        array.removeAll(keepingCapacity: true)
        while spares.count <= depth { spares.append([]) }
        swap(&array, &spares[depth])
    }

    mutating func takeKey(_ key: String, _ style: ScalarStyle, span: Span, frame top: Int) {
        stack[top].pendingKeySpan = span
        stack[top].pendingKey = key
        if style == .plain && sameText(key, "<<") {
            reportOnce("merge", at: span.start,
                       "merge keys ('<<') are not supported in policy files; write each key out")
            stack[top].skipValue = true
        } else if let first = firstSpan(of: key, frame: top) {
            stack[top].skipValue = true
            guard diagnostics.count < Loader.maxFindings else {
                suppressed += 1
                return
            }
            diagnostics.append(Diagnostic(
                span: span, severity: .error, rule: RuleID.yamlDuplicateKey,
                message: "key '\(printable(key))' appears twice in this mapping; the first is at line \(first.start.line), column \(first.start.column)",
                help: "remove one of them; a duplicate key means one value is silently lost",
                related: [.init(file: "", span: first, message: "first '\(printable(key))' is here")]))
            stack[top].skipValue = true
        }
    }

    /// Where `key` first stands in this mapping, if it does. A policy's mappings hold a few keys:
    /// scanning them beats hashing; a large mapping's keys go in a dictionary, kept up to date from
    /// then on. Every key taken becomes an entry when its value arrives, before the next key, so
    /// the entries are exactly the keys seen. Keys are the same when their bytes are: `K` and the
    /// Kelvin sign, or a composed and a decomposed letter, are two keys to every other reader.
    mutating func firstSpan(of key: String, frame top: Int) -> Span? {
        let count = stack[top].entries.count
        if count < 16 {
            for i in 0..<count where sameText(stack[top].entries[i].key, key) { return stack[top].entries[i].keySpan }
            return nil
        }
        while stack[top].seen.count < count {
            let entry = stack[top].entries[stack[top].seen.count]
            stack[top].seen[ExactText(entry.key)] = entry.keySpan
        }
        return stack[top].seen[ExactText(key)]
    }

    mutating func report(_ rule: RuleID, at mark: Mark, _ message: String) {
        diagnostics.append(Diagnostic(span: Span(mark), severity: .error, rule: rule, message: message))
    }

    /// The message is made only for the first: a file may hold tens of thousands of tags.
    mutating func reportOnce(_ kind: String, at mark: Mark, _ message: @autoclosure () -> String) {
        if let seen = unsupported[kind] {
            unsupported[kind] = (seen.index, seen.more + 1)
            return
        }
        unsupported[kind] = (diagnostics.count, 0)
        report(.yamlUnsupported, at: mark, message())
    }

    mutating func finishUnsupportedCounts() {
        for (_, seen) in unsupported where seen.more > 0 {
            diagnostics[seen.index].message += " (\(seen.more) more in this file)"
        }
    }
}

import PolicySource

/// The base protocol of LSP on a stream of bytes (the command line reads them from a file
/// descriptor): `Content-Length: N` headers, an empty line,
/// then N bytes of JSON. A reader that never trusts the other side: header lines and bodies have
/// limits, a body over its limit is read past without being kept, and after a broken header it
/// finds the next message by its `Content-Length`.
package struct MessageReader {
    package enum Frame: Equatable {
        case message([UInt8])
        /// A body over `maxBody` bytes, read and dropped.
        case tooLarge(Int)
        /// Headers that do not say how long the body is (the body, if any, is lost).
        case badHeader(String)
        case end
    }

    /// A 1 MiB policy with every byte escaped (`\u0001`) is 6 MiB of JSON: room for that, and for
    /// larger documents to get their `input-limit` finding, without a client's mistake costing
    /// more than this.
    package static let maxBody = 16 << 20
    static let maxHeaderLine = 8 << 10

    /// Reads into the buffer given what the input has, at most its size: the count, 0 at the end
    /// of the input or after an error.
    let source: (UnsafeMutableRawBufferPointer) -> Int
    private var buffer: [UInt8] = []
    private var start = 0
    package private(set) var ended = false
    /// Where each read(2) lands before it joins `buffer`.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// A message read after a problem that was reported first.
    private var pending: [UInt8]?
    /// The last header block was broken: text before the next `Content-Length` is its body,
    /// already reported.
    private var afterBroken = false

    package init(source: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.source = source
    }

    /// Bytes already read and not yet taken.
    package var hasBuffered: Bool { start < buffer.count || pending != nil }

    package mutating func next() -> Frame {
        if let body = pending.take() { return .message(body) }
        var length: Int?
        var problem: String?
        var sawHeader = false
        while true {
            guard let (line, truncated) = readLine() else {
                return sawHeader ? .badHeader("the input ended inside a message's headers") : .end
            }
            if line.isEmpty && !truncated {
                // Blank lines before a message are skipped; after its headers they end them.
                if sawHeader { break }
                continue
            }
            sawHeader = true
            var text = line
            if truncated {
                problem = problem ?? "a header line is longer than \(Self.maxHeaderLine) bytes"
            }
            // After a broken message, the next one may follow its body on the same line.
            if let at = Self.lastContentLength(in: text), at > 0 {
                text = Array(text[at...])
                problem = problem ?? "text that is not a header came before 'Content-Length'"
                length = nil
            }
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else {
                problem = problem ?? "'\(printable(String(decoding: text.prefix(60), as: UTF8.self)))' is not a header"
                continue
            }
            let name = String(decoding: text[..<colon], as: UTF8.self).lowercased()
            var value = text[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            if name == "content-length" {
                while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
                guard !value.isEmpty, value.count <= 15, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    problem = problem ?? "Content-Length '\(printable(String(decoding: value.prefix(30), as: UTF8.self)))' is not a number of bytes"
                    continue
                }
                length = Int(String(decoding: value, as: UTF8.self))
            }
            // Content-Type and any other header: nothing to do (the body is UTF-8 JSON).
        }
        guard let length else {
            afterBroken = true
            return .badHeader(problem ?? "a message needs a Content-Length header")
        }
        let reportable = afterBroken ? nil : problem
        afterBroken = false
        if length > Self.maxBody {
            skip(length)
            return .tooLarge(length)
        }
        guard let body = read(length) else {
            return .badHeader("the input ended inside a message of \(length) bytes")
        }
        if let reportable {
            // What came before this message's headers was not a message: say so, then take it.
            pending = body
            return .badHeader(reportable)
        }
        return .message(body)
    }

    /// Where the last `Content-Length:` (any case) of a line starts.
    static func lastContentLength(in line: [UInt8]) -> Int? {
        let word = Array("content-length:".utf8)
        guard line.count >= word.count else { return nil }
        var i = line.count - word.count
        while i >= 0 {
            var k = 0
            while k < word.count {
                var c = line[i + k]
                if c >= 0x41 && c <= 0x5A { c += 0x20 }
                if c != word[k] { break }
                k += 1
            }
            if k == word.count { return i }
            i -= 1
        }
        return nil
    }

    // MARK: bytes

    /// Reads more input into the buffer; false at the end of the input.
    private mutating func fill() -> Bool {
        guard !ended else { return false }
        if start >= 1 << 16 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { source($0) }
            if n <= 0 {
                ended = true
                return false
            }
            chunk.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            return true
        }
    }

    /// A line without its `\n` (or `\r\n`), and whether it was longer than `maxHeaderLine`: then
    /// only its last 64 bytes are kept (a message's headers may start there). Nil at the end of
    /// the input.
    private mutating func readLine() -> ([UInt8], Bool)? {
        var scanned = 0  // bytes after `start` known to hold no line break
        var truncated = false
        while true {
            if let nl = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<nl])
                start = nl + 1
                if line.last == 0x0D { line.removeLast() }
                return (line, truncated)
            }
            if buffer.count - start > Self.maxHeaderLine {
                truncated = true
                buffer.removeSubrange(start..<(buffer.count - 64))
            }
            scanned = buffer.count - start
            guard fill() else {
                guard start < buffer.count else { return nil }
                let rest = Array(buffer[start...])
                start = buffer.count
                return (rest, truncated)
            }
        }
    }

    /// Exactly `count` bytes, nil if the input ends first. What is not buffered yet is read
    /// straight into the body.
    private mutating func read(_ count: Int) -> [UInt8]? {
        let have = min(buffer.count - start, count)
        var complete = true
        let body = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            buffer.withUnsafeBufferPointer { b in
                if have > 0 { out.baseAddress!.update(from: b.baseAddress! + start, count: have) }
            }
            var filled = have
            while filled < count {
                let n = source(UnsafeMutableRawBufferPointer(start: out.baseAddress! + filled, count: count - filled))
                if n <= 0 {
                    ended = true
                    complete = false
                    break
                }
                filled += n
            }
            initialized = filled
        }
        start += have
        return complete ? body : nil
    }

    /// Reads past `count` bytes without keeping them.
    private mutating func skip(_ count: Int) {
        var left = count
        while left > 0 {
            let available = buffer.count - start
            if available > 0 {
                let n = min(available, left)
                start += n
                left -= n
                continue
            }
            buffer.removeAll(keepingCapacity: true)
            start = 0
            guard fill() else { return }
        }
    }
}

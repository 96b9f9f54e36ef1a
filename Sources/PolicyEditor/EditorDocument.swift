import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// One document open in an editor, as a value: its text and the version the editor gave it.
public struct EditorDocument: Sendable {
    /// The editor's name for it (`file:///…/playback.yaml`).
    public var uri: String
    /// What findings call the file: relative to its workspace folder where it has one.
    public var path: String
    public var version: Int
    /// The text and its line tables, always of the same bytes.
    public private(set) var lines: LineIndex

    public var bytes: [UInt8] { lines.bytes }

    public init(uri: String, path: String, version: Int, text: [UInt8]) {
        self.uri = uri
        self.path = path
        self.version = version
        self.lines = LineIndex(text)
    }

    /// One change of `textDocument/didChange`: the range it replaces, or the whole text.
    public struct Change: Sendable {
        public var range: EditorRange?
        public var text: String

        public init(range: EditorRange?, text: String) {
            self.range = range
            self.text = text
        }
    }

    /// Applies the changes in order, each to the text the one before left (as the protocol says).
    /// A range out of the text is clamped to it (see `LineIndex.offset(of:_:)`), never trapped on.
    public mutating func apply(_ changes: [Change], encoding: PositionEncoding) {
        for change in changes {
            guard let range = change.range else {
                lines = LineIndex(Array(change.text.utf8))
                continue
            }
            var bytes = lines.bytes
            let a = lines.offset(of: range.start, encoding)
            let b = max(a, lines.offset(of: range.end, encoding))
            bytes.replaceSubrange(a..<b, with: change.text.utf8)
            lines = LineIndex(bytes)
        }
    }
}

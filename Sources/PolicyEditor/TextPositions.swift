import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// How an editor counts characters in a line (LSP `positionEncoding`, agreed at `initialize`).
public enum PositionEncoding: String, Sendable, Hashable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
}

/// A position as the Language Server Protocol has it: 0-based line, 0-based character offset in
/// the agreed code units.
public struct EditorPosition: Sendable, Hashable, Comparable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public static func < (a: EditorPosition, b: EditorPosition) -> Bool {
        (a.line, a.character) < (b.line, b.character)
    }
}

public struct EditorRange: Sendable, Hashable {
    public var start: EditorPosition
    public var end: EditorPosition

    public init(start: EditorPosition, end: EditorPosition) {
        self.start = start
        self.end = end
    }
}

/// An editor's positions in a text's lines (`LineIndex`, the editor's line breaks: our marks
/// count lines as the protocol does), through byte offsets.
extension LineIndex {
    /// The unit of an editor's columns.
    static func unit(_ encoding: PositionEncoding) -> Unit {
        encoding == .utf8 ? .utf8 : .utf16
    }

    /// The editor's position of a byte offset.
    public func position(at offset: Int, _ encoding: PositionEncoding) -> EditorPosition {
        EditorPosition(line: lineNumber(containing: offset) - 1, character: column(at: offset, in: Self.unit(encoding)))
    }

    /// The byte offset of an editor's position. As the protocol says, a character past the end of
    /// its line stands at the line's end; a line past the last stands at the end of the text, a
    /// negative one at the start. A position inside a character (the middle of a surrogate pair or
    /// of a UTF-8 sequence) stands at that character.
    public func offset(of position: EditorPosition, _ encoding: PositionEncoding) -> Int {
        // Compared before adding: a line of Int.max must not overflow.
        guard position.line < lineCount else { return bytes.count }
        return offset(ofLine: position.line + 1, units: position.character, in: Self.unit(encoding))
    }

    public func position(of mark: Mark, _ encoding: PositionEncoding) -> EditorPosition {
        position(at: clampedOffset(of: mark), encoding)
    }

    /// The editor's range of a span; the end is never before the start.
    public func range(of span: Span, _ encoding: PositionEncoding) -> EditorRange {
        let start = clampedOffset(of: span.start)
        let end = max(start, clampedOffset(of: span.end))
        return EditorRange(start: position(at: start, encoding), end: position(at: end, encoding))
    }
}

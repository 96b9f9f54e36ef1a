import PolicySource
import PolicyCheck

extension Reporters {
    /// A source line made safe to print, and the caret line under it.
    ///
    /// Tabs are kept (and repeated in the caret line, so the caret lines up however wide a tab is);
    /// control and bidi characters are shown escaped, as `printable` does; very long lines are cut to
    /// a window around the column.
    struct Excerpt {
        var text = ""
        var caret = ""

        static let window = 160

        /// The excerpt of a line's scalars for a finding at `column`, with the widths of the
        /// scalars met so far in the report.
        init(line scalars: [Unicode.Scalar], column: Int, endColumn: Int?, widths: inout Widths) {
            let (at, lower, upper) = Excerpt.bounds(count: scalars.count, column: column)
            let window = Array(scalars[lower..<upper])
            let cut = Excerpt.escapedCut(window, lower: lower, at: at)
            self.init(shown: cut.map { Array(window[$0]) } ?? window, lower: lower + (cut?.lowerBound ?? 0), count: scalars.count,
                      at: at, endColumn: endColumn, widths: &widths)
        }

        /// The caret's scalar offset and the window shown, of a line of `count` scalars.
        static func bounds(count: Int, column: Int) -> (at: Int, lower: Int, upper: Int) {
            let at = max(0, min(column - 1, count))
            var lower = 0, upper = count
            if count > Excerpt.window {
                lower = max(0, min(at - Excerpt.window / 3, count - Excerpt.window))
                upper = min(count, lower + Excerpt.window)
            }
            return (at, lower, upper)
        }

        /// At most this many characters of a line whose window holds escaped characters (`\u{0}`
        /// and the like, up to 10 characters each), its `…`s included: a binary file's line
        /// would otherwise quote hundreds of them.
        static let escapedLimit = 80

        /// The part of `window` around the caret that shows within `escapedLimit` characters, when
        /// it holds an escaped character and shows longer; nil otherwise.
        static func escapedCut(_ window: [Unicode.Scalar], lower: Int, at: Int) -> Range<Int>? {
            var lengths: [Int] = []
            var total = 0, escaped = false
            for s in window {
                let n = (s.value >= 0x20 && s.value < 0x7F) || s == "\t" || !isUnsafeScalar(s) ? 1 : printable(String(s)).unicodeScalars.count
                escaped = escaped || n > 1
                lengths.append(n)
                total += n
            }
            guard escaped, total > escapedLimit else { return nil }
            // Room for a `…` on each side.
            let budget = escapedLimit - 2
            let pivot = max(0, min(at - lower, window.count - 1))
            var lo = pivot, hi = pivot + 1, used = lengths[pivot]
            // A third of the room before the caret, the rest after, and what is left of it before.
            while lo > 0, used + lengths[lo - 1] <= budget / 3 { lo -= 1; used += lengths[lo] }
            while hi < window.count, used + lengths[hi] <= budget { used += lengths[hi]; hi += 1 }
            while lo > 0, used + lengths[lo - 1] <= budget { lo -= 1; used += lengths[lo] }
            return lo..<hi
        }

        private init(shown window: [Unicode.Scalar], lower: Int, count: Int, at: Int, endColumn: Int?, widths: inout Widths) {
            let upper = lower + window.count
            // The caret stands under the start; `~` runs to the span's end when it is on this line.
            let end = endColumn.map { max(at + 1, min($0 - 1, upper)) } ?? at + 1
            // Both lines made as bytes: appending to a String a scalar at a time is slow, and a
            // report has up to a thousand.
            var shownLine: [UInt8] = [], caretLine: [UInt8] = []
            shownLine.reserveCapacity(window.count + 8)
            caretLine.reserveCapacity(min(at, upper) - lower + 2)
            func mark(_ byte: UInt8, _ count: Int = 1) {
                for _ in 0..<count { caretLine.append(byte) }
            }
            if lower > 0 {
                shownLine += "…".utf8
                mark(0x20)
            }
            for i in lower..<upper {
                let scalar = window[i - lower]
                // Printable ASCII, most of any line: itself, one column wide.
                if scalar.value >= 0x20 && scalar.value < 0x7F {
                    shownLine.append(UInt8(scalar.value))
                    if i < at {
                        mark(0x20)
                    } else if i == at {
                        mark(0x5E)
                    } else if i < end {
                        mark(0x7E)
                    }
                    continue
                }
                let width = Excerpt.display(scalar, into: &shownLine, widths: &widths)
                if i < at {
                    if scalar == "\t" { mark(0x09) } else { mark(0x20, width) }
                } else if i == at {
                    mark(0x5E)
                    mark(0x7E, max(0, width - 1))
                } else if i < end {
                    mark(0x7E, max(1, width))
                }
            }
            if at >= upper { mark(0x5E) }  // the end of the line (a missing value, say)
            if upper < count { shownLine += "…".utf8 }
            text = String(decoding: shownLine, as: UTF8.self)
            self.caret = String(decoding: caretLine, as: UTF8.self)
        }

        /// Appends how a character is shown to `line`; returns how many columns it takes on a
        /// terminal.
        static func display(_ s: Unicode.Scalar, into line: inout [UInt8], widths: inout Widths) -> Int {
            if s == "\t" {
                line.append(0x09)
                return 1
            }
            if isUnsafeScalar(s) {
                let shown = printable(String(s))
                line += shown.utf8
                return shown.unicodeScalars.count
            }
            UTF8.encode(s) { line.append($0) }
            return widths.of(s)
        }

        /// The terminal columns of the scalars a report has met. `width` asks Unicode's tables
        /// (general category, emoji presentation), which is slow when many findings stand on
        /// lines of accented words. Kept for the Basic Multilingual Plane in a table of 64 KB,
        /// made at the first scalar past ASCII (a dictionary's lookups are slower still).
        struct Widths {
            private var known: [Int8] = []

            mutating func of(_ s: Unicode.Scalar) -> Int {
                guard s.value < 0x1_0000 else { return Excerpt.width(s) }
                if known.isEmpty { known = [Int8](repeating: -1, count: 0x1_0000) }
                let i = Int(s.value)
                if known[i] < 0 { known[i] = Int8(Excerpt.width(s)) }
                return Int(known[i])
            }
        }

        /// Terminal columns of a printable scalar: 0 for combining marks, 2 for East Asian wide
        /// characters and emoji, else 1. An approximation of `wcwidth` without a locale.
        static func width(_ s: Unicode.Scalar) -> Int {
            switch s.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: break
            }
            switch s.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
                return 2
            default:
                return s.properties.isEmojiPresentation ? 2 : 1
            }
        }
    }
}

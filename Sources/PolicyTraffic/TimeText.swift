import PolicySource

/// `startedDateTime` and `expires_at`: ISO 8601 (`2026-12-07T02:10:39.123Z`, `+01:00`, any number
/// of fraction digits) → milliseconds since 1970; nil for anything else.
enum ISOTime {
    static func milliseconds(_ text: String) -> Int? {
        let c = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= c.count else { return nil }
            var n = 0
            for k in from..<(from + count) {
                guard c[k] >= 0x30, c[k] <= 0x39 else { return nil }
                n = n * 10 + Int(c[k] - 0x30)
            }
            return n
        }
        guard c.count >= 19, let year = number(0, 4), c[4] == UInt8(ascii: "-"), let month = number(5, 2),
              c[7] == UInt8(ascii: "-"), let day = number(8, 2), c[10] == UInt8(ascii: "T") || c[10] == UInt8(ascii: " "),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...Day.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var fraction = 0
        if i < c.count, c[i] == UInt8(ascii: ".") {
            i += 1
            var scale = 100
            while i < c.count, c[i] >= 0x30, c[i] <= 0x39 {
                fraction += Int(c[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        var offsetMinutes = 0
        if i < c.count {
            if c[i] == UInt8(ascii: "Z") || c[i] == UInt8(ascii: "z") {
                i += 1
            } else if c[i] == UInt8(ascii: "+") || c[i] == UInt8(ascii: "-") {
                let sign = c[i] == UInt8(ascii: "-") ? -1 : 1
                guard let h = number(i + 1, 2) else { return nil }
                let colon = i + 3 < c.count && c[i + 3] == UInt8(ascii: ":") ? 1 : 0
                guard let m = number(i + 3 + colon, 2) else { return nil }
                offsetMinutes = sign * (h * 60 + m)
                i += 5 + colon
            }
        }
        guard i == c.count else { return nil }
        let days = Day(year: year, month: month, day: day).daysSinceEpoch
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return seconds * 1000 + fraction
    }
}

/// A Retry-After value → milliseconds: delta-seconds (`2`, `1.5` in an item's `retry_after`), or
/// an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) against `nowMs`, the answer's time.
enum RetryAfter {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func milliseconds(_ text: String, nowMs: Int?) -> Int? {
        let trimmed = text.trimmingSpaces
        if let seconds = Double(trimmed), seconds >= 0, seconds < 1e9 { return Int(seconds * 1000) }
        let parts = trimmed.split(separator: " ")
        guard let nowMs, parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (1900...9999).contains(year) else { return nil }
        let ms = (Day(year: year, month: month + 1, day: day).daysSinceEpoch * 86_400
            + clock[0] * 3600 + clock[1] * 60 + clock[2]) * 1000
        return max(0, ms - nowMs)
    }
}

enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer = 0, bits = 0
        for c in text.utf8 {
            let v: Int
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = Int(c) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = Int(c) - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = Int(c) + 4
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="), 0x0A, 0x0D, 0x20: continue
            default: return nil
            }
            buffer = (buffer << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        return out
    }
}

/// `verify: {endpoint: GLOB}`: `*` any run of characters but `/`, `**` any run, `?` one character.
public enum Glob {
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        // Positions of the pattern reachable after each character of the text (no backtracking blow-up).
        var states: Set<Int> = closure([0], p)
        for ch in t {
            var next: Set<Int> = []
            for s in states where s < p.count {
                if p[s] == "*" {
                    let double = s + 1 < p.count && p[s + 1] == "*"
                    if double || ch != "/" { next.insert(s) }
                } else if p[s] == "?" ? ch != "/" : p[s] == ch {
                    next.insert(s + 1)
                }
            }
            states = closure(next, p)
            if states.isEmpty { return false }
        }
        return states.contains(p.count)
    }

    /// A star matches nothing too: from a star, the position after it (after `**`, after both).
    private static func closure(_ states: Set<Int>, _ p: [Unicode.Scalar]) -> Set<Int> {
        var result = states, stack = Array(states)
        while let s = stack.popLast() {
            guard s < p.count, p[s] == "*" else { continue }
            let after = s + 1 < p.count && p[s + 1] == "*" ? s + 2 : s + 1
            // `**` stays on its first star (it loops there) and may also be skipped.
            if result.insert(after).inserted { stack.append(after) }
        }
        return result
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A calendar day (proleptic Gregorian, no time zone): a waiver's expiry and "today". Kept as
/// days since 1970-01-01 so that days apart is a subtraction.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let daysSinceEpoch: Int

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// `YYYY-MM-DD` exactly (four-digit year 0001-9999, a day that exists: no `2027-02-30`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                n = n * 10 + Int(bytes[i] - 0x30)
            }
            return n
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              year >= 1, (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public init(year: Int, month: Int, day: Int) {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        daysSinceEpoch = era * 146_097 + doe - 719_468
    }

    public var parts: (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        let p = parts
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(p.year, 4))-\(pad(p.month, 2))-\(pad(p.day, 2))"
    }

    public func adding(days: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + days) }

    /// Days from `self` to `other` (negative when `other` is earlier).
    public func days(to other: Day) -> Int { other.daysSinceEpoch - daysSinceEpoch }

    public static func < (a: Day, b: Day) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    /// The date in UTC now.
    public static func todayUTC() -> Day {
        let seconds = Int(time(nil))
        return Day(daysSinceEpoch: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    }
}

import PolicySource
import PolicyCheck

/// The simulation's own random numbers: the same seed gives the same draws on every machine, with
/// any number of threads. Nothing here calls the system's generator or its `log`: libm's results
/// may differ in the last bit between platforms, and one bit is enough to change a run.
struct RandomStream {
    private var s0, s1, s2, s3: UInt64

    /// What each stream is for: one stream per purpose, so that adding draws for one purpose never
    /// shifts the draws of another (the calls of both sides of a diff are then the same calls).
    enum Purpose: UInt64 {
        case arrivals = 1
        case jitter = 2
        /// Which client makes each call, in the order the calls start.
        case clients = 3
        /// When each client's budget minute began, before the run.
        case phases = 4
    }

    /// xoshiro256** (Blackman and Vigna), its state filled by SplitMix64 from the seed and the purpose.
    init(seed: UInt64, purpose: Purpose) {
        var mix = SplitMix64(state: SplitMix64.scramble(seed ^ SplitMix64.scramble(purpose.rawValue)))
        s0 = mix.next()
        s1 = mix.next()
        s2 = mix.next()
        s3 = mix.next()
        // All zero is the one state xoshiro never leaves; SplitMix64 cannot give it four times.
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate(s3, 45)
        return result
    }

    /// Uniform in [0, 1): the top 53 bits, exactly representable.
    @inline(__always)
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in 0 ..< n (n > 0), by the high half of a 128-bit product (Lemire): no division.
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: UInt64(n).multipliedFullWidth(by: next()).high)
    }

    /// Exponential with mean 1: −ln(1 − u), u in [0, 1), so the argument is in (0, 1].
    @inline(__always)
    mutating func exponential() -> Double {
        -Exact.log(1 - unit())
    }

    @inline(__always)
    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}

/// SplitMix64 (Steele, Lea and Flood): seeds xoshiro, as its authors advise.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.scramble(state)
    }

    /// SplitMix64's output function: a bijection that spreads every input bit over the output.
    static func scramble(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Functions computed with IEEE basic operations only (+, −, ×, ÷ are correctly rounded on every
/// machine), so their results are the same bits everywhere.
enum Exact {
    /// ln 2 split so that e · ln2Hi is exact for |e| < 2^11.
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    /// 1 / (2k + 1) for the series of atanh, k = 0 … 11.
    static let oddReciprocals: [Double] = (0..<12).map { 1 / Double(2 * $0 + 1) }

    /// ln x for finite x > 0 (other values are never asked for). x = m · 2^e with m in
    /// [√½, √2]; ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716, by its series to s^23: the
    /// first term left out is under 10^-19 of the result.
    static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        var e = Double(x.exponent)
        var m = x.significand   // [1, 2), exact
        if m > 1.4142135623730951 {
            m *= 0.5            // exact
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var p = oddReciprocals[11]
        var k = 10
        while k >= 0 {
            p = p * s2 + oddReciprocals[k]
            k -= 1
        }
        return e * ln2Hi + (2 * s * p + e * ln2Lo)
    }
}

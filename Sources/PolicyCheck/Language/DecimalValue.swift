import PolicySource

extension Values {
    /// A plain decimal number: `0.5`, `3`, `1.25`, `-2` (digits, optionally a point and more
    /// digits). No exponents, separators, signs of other bases, leading zeros or bare points:
    /// each of those is an error that shows the right spelling, as for integers. The rates and
    /// factors of a simulation scenario are written so.
    public static func decimal(_ text: String) -> Parsed<Double> {
        let t = text
        let negative = t.hasPrefix("-")
        let body = negative ? String(t.dropFirst()) : t
        let sign = negative ? "-" : ""
        if let (whole, fraction) = decimal(Substring(body)) {
            if whole.count > 1, whole.hasPrefix("0") {
                let trimmed = whole.drop(while: { $0 == "0" })
                let fixed = (trimmed.isEmpty ? "0" : String(trimmed)) + (fraction.isEmpty ? "" : "." + fraction)
                return .invalid(message: "'\(excerpt(t))' is written with a leading zero", help: "write \(excerpt(sign + fixed))")
            }
            guard whole.count + fraction.count <= 17, let v = Double(t), v.isFinite,
                  abs(v) <= Double(maxMagnitude) else {
                return .invalid(message: "'\(excerpt(t))' is too long a number; numbers go up to \(maxMagnitude) with at most 17 digits", help: nil)
            }
            if negative && v == 0 { return .invalid(message: "'\(excerpt(t))' is a negative zero", help: "write 0") }
            return .value(v)
        }
        let lower = t.lowercased()
        if lower.hasSuffix("%"), let d = Double(lower.dropLast().trimmingSpaces), d.isFinite {
            return .invalid(message: "'\(excerpt(t))' is a percent; this is a plain number", help: "write \(JSON.number(d / 100))")
        }
        if lower.hasPrefix("+"), case .value(let v) = decimal(String(t.dropFirst())) {
            return .invalid(message: "'\(excerpt(t))' is written with a plus sign", help: "write \(JSON.number(v))")
        }
        if body.hasPrefix("."), case .value(let v) = decimal("0" + body) {
            return .invalid(message: "'\(excerpt(t))' has no digit before its point", help: "write \(JSON.number(negative ? -v : v))")
        }
        if body.hasSuffix("."), case .value(let v) = decimal(String(body.dropLast())) {
            return .invalid(message: "'\(excerpt(t))' has no digit after its point", help: "write \(JSON.number(negative ? -v : v))")
        }
        if body.contains("_") || body.contains(",") {
            let digits = body.filter { $0 != "_" && $0 != "," }
            if case .value(let v) = decimal(digits) {
                return .invalid(message: "'\(excerpt(t))' is written with digit separators", help: "write \(JSON.number(negative ? -v : v))")
            }
        }
        let b = body.lowercased()
        if b.hasPrefix("0x") || b.hasPrefix("0o") || b.hasPrefix("0b"), case .invalid(let message, let help, _) = integer(t) {
            return .invalid(message: message, help: help)
        }
        if b.contains("e"), let d = Double(body), d.isFinite, body.first?.isASCIIDigit == true {
            return .invalid(message: "'\(excerpt(t))' is written with an exponent", help: "write \(JSON.number(negative ? -d : d))")
        }
        return .invalid(message: "'\(excerpt(t))' is not a number", help: nil)
    }
}

/// Text from a policy made safe to echo in a message: control characters (C0, DEL, C1), line and
/// paragraph separators and bidi controls become `\u{…}`, so output cannot carry terminal escapes,
/// break a line of a machine format, or reorder what a reviewer reads.
public func printable(_ text: String) -> String {
    // Printable ASCII, the usual text, is safe as it is: checked on bytes, without decoding.
    if allUTF8(text, { $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard text.unicodeScalars.contains(where: isUnsafeScalar) else { return text }
    var out = ""
    for scalar in text.unicodeScalars { appendPrintable(scalar, to: &out) }
    return out
}

/// The most of a value from a policy that a message shows, in Unicode scalars. Every value the
/// language accepts is shorter (a name has at most 64), so only a mistake is ever cut; uncut, a
/// value of 1 MiB made a message, and a line of output, of 1 MiB.
public let excerptLimit = 80

/// `printable(text)` cut after `excerptLimit` scalars, with … where it was cut: how a message
/// shows a value, a key or a name from a policy.
public func excerpt(_ text: String) -> String {
    // A text of no more bytes than the limit has no more scalars either.
    guard text.utf8.count > excerptLimit,
          let cut = text.unicodeScalars.index(text.unicodeScalars.startIndex, offsetBy: excerptLimit,
                                              limitedBy: text.unicodeScalars.endIndex),
          cut != text.unicodeScalars.endIndex else { return printable(text) }
    return printable(String(text.unicodeScalars[..<cut])) + "…"
}

/// Appends `scalar`, or its `\u{…}` form when echoing it is unsafe: the step every format's own
/// escaping ends with.
public func appendPrintable(_ scalar: Unicode.Scalar, to out: inout String) {
    if isUnsafeScalar(scalar) {
        out += escapedScalar(scalar)
    } else {
        out.unicodeScalars.append(scalar)
    }
}

/// `U+212A KELVIN SIGN`: a character by its code and its Unicode name (or just its code, for one
/// without a name), for a message that must tell it from the character it looks like.
public func describeScalar(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    guard let name = scalar.properties.name ?? scalar.properties.nameAlias else { return code }
    return code + " " + name
}

/// `\u{1B}`: how an unsafe scalar is shown.
public func escapedScalar(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
}

public func isUnsafeScalar(_ s: Unicode.Scalar) -> Bool {
    switch s.value {
    case 0x00...0x1F, 0x7F...0x9F: return true          // C0, DEL, C1 (ESC starts terminal escapes)
    case 0x2028, 0x2029: return true                       // line and paragraph separators
    case 0x200E, 0x200F, 0x061C: return true               // directional marks
    case 0x202A...0x202E, 0x2066...0x2069: return true     // bidi embeddings, overrides, isolates
    case 0xFEFF: return true                               // zero-width no-break space
    default: return false
    }
}

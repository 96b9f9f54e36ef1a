import PolicySource

/// A scalar decoded by the shape it stands for. Past the report's end (`room` used up) only
/// whether a value is valid counts: the parsers are asked not to explain (see `Values`).
extension PolicyDecoder {
    mutating func decodeScalar(_ text: String, _ style: ScalarStyle, _ shape: Shape, key: Label, span: Span) -> Decoded? {
        switch shape {
        case .integer(let lo, let hi): return decodeInteger(text, style, shape, range: lo...hi, key: key, span: span)
        case .status: return decodeInteger(text, style, shape, range: 100...599, key: key, span: span)
        case .string, .name, .paths: return Decoded(value: .string(text), span: span)
        case .boolean: return decodeBoolean(text, style, key: key, span: span)
        case .duration: return decodeDuration(text, key: key, span: span)
        case .percent: return decodePercent(text, key: key, span: span)
        case .choice(let options):
            if options.contains(where: { sameText($0, text) }) { return Decoded(value: .string(text), span: span) }
            return badChoice(text, options, key: key, span: span)
        case .statusOrNetwork:
            if sameText(text, "network") { return Decoded(value: .network, span: span) }
            return decodeStatusOr("network", text, style, key: key, span: span)
        case .statusOrNone:
            // `none` is a word, as a choice is: a string.
            if sameText(text, "none") { return Decoded(value: .string("none"), span: span) }
            return decodeStatusOr("none", text, style, key: key, span: span)
        case .decimal(let lo, let hi): return decodeDecimal(text, style, shape, range: lo...hi, key: key, span: span)
        case .object, .namedMap, .list, .either:
            return mismatch(Node(.scalar(text, style), span: span), shape, key)
        }
    }

    /// Whether findings are still kept: their messages are worth making.
    var explaining: Bool { diagnostics.count < room }

    private mutating func decodeInteger(_ text: String, _ style: ScalarStyle, _ shape: Shape, range: ClosedRange<Int>,
                                        key: Label, span: Span) -> Decoded? {
        guard style.isPlain else {
            let number = Int(text)
            return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation), found the quoted string '\(excerpt(text))'",
                        help: number.map { "write \($0) without quotes" }, fix: unquoting(span, number.map(String.init)))
        }
        switch Values.integer(text, explain: explaining) {
        case .invalid(let message, let help, let correction):
            return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation): \(printable(message))", help: help,
                        fix: fixing(span, correction))
        case .value(let v) where v < range.lowerBound:
            return fail(.typeMismatch, at: span, "\(key) is \(v); it must be \(range.lowerBound) or more")
        case .value(let v) where v > range.upperBound:
            if case .status = shape { return fail(.typeMismatch, at: span, "\(key) is \(v), not an HTTP status code (100 to 599)") }
            return fail(.typeMismatch, at: span, "\(key) is \(v); it must be at most \(range.upperBound)")
        case .value(let v):
            return Decoded(value: .integer(v), span: span)
        }
    }

    private mutating func decodeBoolean(_ text: String, _ style: ScalarStyle, key: Label, span: Span) -> Decoded? {
        guard style.isPlain else {
            let isBoolean = text == "true" || text == "false"
            return fail(.typeMismatch, at: span, "\(key) must be true or false, found the quoted string '\(excerpt(text))'",
                        help: isBoolean ? "write \(text) without quotes" : "write true or false",
                        fix: isBoolean ? unquoting(span, text) : nil)
        }
        switch Values.boolean(text) {
        case .value(let b): return Decoded(value: .boolean(b), span: span)
        case .invalid(let message, let help, let correction):
            return fail(.typeMismatch, at: span, "\(key) must be true or false: \(printable(message))", help: help,
                        fix: fixing(span, correction))
        }
    }

    private mutating func decodeDuration(_ text: String, key: Label, span: Span) -> Decoded? {
        // The usual value where it stands picks a bare number's unit: looked up only for a mistake.
        let typical = explaining && text.utf8.allSatisfy { Values.isDigit($0) || $0 == UInt8(ascii: ".") } ? typicalDuration() : nil
        switch Values.duration(text, typical: typical, explain: explaining) {
        case .value(let ms): return Decoded(value: .duration(ms), span: span)
        case .invalid(let message, let help, let correction):
            return fail(.typeMismatch, at: span, "\(key) must be a duration: \(printable(message))", help: help,
                        fix: fixing(span, correction))
        }
    }

    private mutating func decodePercent(_ text: String, key: Label, span: Span) -> Decoded? {
        switch Values.percent(text, explain: explaining) {
        case .value(let p): return Decoded(value: .percent(p), span: span)
        case .invalid(let message, let help, let correction):
            return fail(.typeMismatch, at: span, "\(key) must be a percent: \(printable(message))", help: help,
                        fix: fixing(span, correction))
        }
    }

    /// An HTTP status code, or the one `word` allowed instead (`network`, `none`).
    private mutating func decodeStatusOr(_ word: String, _ text: String, _ style: ScalarStyle, key: Label, span: Span) -> Decoded? {
        if style.isPlain, case .value = Values.integer(text, explain: false) {
            return decodeScalar(text, style, .status, key: key, span: span)
        }
        guard explaining else { return fail(.typeMismatch, at: span, "") }
        let what = word == "network" ? "network or an HTTP status code" : "an HTTP status code or none"
        if !style.isPlain, let v = Int(text) {
            return fail(.typeMismatch, at: span, "\(key) must be \(what), found the quoted string '\(excerpt(text))'",
                        help: "write \(v) without quotes", fix: unquoting(span, String(v)))
        }
        if text.first?.isASCIIDigit == true, case .invalid(let message, let help, let correction) = Values.integer(text) {
            return fail(.typeMismatch, at: span, "\(key) must be \(what): \(printable(message))", help: help,
                        fix: fixing(span, correction))
        }
        let nearest = Suggest.nearest(text, in: [word])
        let instead = word == "network"
            ? "write network or a status code such as 503" : "write none (no answer at all) or a status code such as 503"
        return fail(.typeMismatch, at: span, "\(key) is '\(excerpt(text))', which is neither \(word) nor an HTTP status code",
                    help: nearest.map { Suggest.didYouMean(text, $0) } ?? instead,
                    fix: nearest.flatMap { fixing(span, Values.Correction($0, .unsafe)) })
    }

    private mutating func decodeDecimal(_ text: String, _ style: ScalarStyle, _ shape: Shape, range: ClosedRange<Double>,
                                        key: Label, span: Span) -> Decoded? {
        guard style.isPlain else {
            var help: String?
            if case .value = Values.decimal(text) { help = "write \(excerpt(text)) without quotes" }
            return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation), found the quoted string '\(excerpt(text))'",
                        help: help, fix: help == nil ? nil : unquoting(span, text))
        }
        switch Values.decimal(text) {
        case .invalid(let message, let help, let correction):
            return fail(.typeMismatch, at: span, "\(key) must be \(shape.expectation): \(printable(message))", help: help,
                        fix: fixing(span, correction))
        case .value(let v) where v < range.lowerBound:
            return fail(.typeMismatch, at: span, "\(key) is \(JSON.number(v)); it must be \(JSON.number(range.lowerBound)) or more")
        case .value(let v) where v > range.upperBound:
            return fail(.typeMismatch, at: span, "\(key) is \(JSON.number(v)); it must be at most \(JSON.number(range.upperBound))")
        case .value(let v):
            return Decoded(value: .decimal(v), span: span)
        }
    }
}

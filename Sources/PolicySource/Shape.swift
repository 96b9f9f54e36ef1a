/// The shape of a document as data: the one description of a language (policies, the project
/// file, scenarios) that the decoder, the JSON Schema, did-you-mean suggestions and the
/// documentation all read. Keys are listed in canonical order.
public indirect enum Shape: Sendable {
    /// Plain decimal integer in `min...max`.
    case integer(min: Int, max: Int)
    /// Any scalar, taken as written (a `code: no` is the string "no").
    case string
    /// A policy name (the pattern is checked by the `bad-name` rule, so it can also check keywords).
    case name
    case duration
    case percent
    case boolean
    case choice([String])
    /// An HTTP status code, 100 to 599.
    case status
    /// `network` or an HTTP status code.
    case statusOrNetwork
    /// A plain decimal number in `min...max` (`0.5`, `3`, `1.25`): the rates and factors of a
    /// simulation scenario.
    case decimal(min: Double, max: Double)
    /// An HTTP status code, or `none` for no answer at all (a scenario's outage).
    case statusOrNone
    case object([Field])
    /// A mapping from names to values of one shape, at least one entry (the retry profiles).
    case namedMap(Shape, what: String)
    case list(Shape, unique: Bool)
    /// A scalar of the first shape, or a mapping or list of the second (the project file's
    /// `out`: one folder, or a folder a language).
    case either(Shape, Shape)
    /// A path, or a list of paths, each relative to the file that writes it (`extends`).
    case paths

    /// The shape of the value under `key` in a mapping of this shape (keys compare by bytes, as
    /// the decoder compares them); nil for a key it does not have.
    package func valueShape(_ key: String) -> Shape? {
        switch self {
        case .object(let fields): return fields.first { sameText($0.key, key) }?.shape
        case .namedMap(let value, _): return value
        case .either(_, let container): return container.valueShape(key)
        default: return nil
        }
    }

    /// The shape of a list's items.
    package var itemShape: Shape? {
        if case .list(let item, _) = self { return item }
        return nil
    }

    /// How a value of this shape is named in messages: "a duration", "a list".
    public var expectation: String {
        switch self {
        case .integer(let min, _): return min == 0 ? "an integer of 0 or more" : "an integer"
        case .string: return "a string"
        case .name: return "a name"
        case .duration: return "a duration"
        case .percent: return "a percent"
        case .boolean: return "true or false"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .status: return "an HTTP status code"
        case .statusOrNetwork: return "network or an HTTP status code"
        case .decimal(let min, _): return min == 0 ? "a number of 0 or more" : "a number"
        case .statusOrNone: return "an HTTP status code or none"
        case .object: return "a mapping"
        case .namedMap(_, let what): return "a mapping of \(what)"
        case .list: return "a list"
        case .either(let scalar, let container): return "\(scalar.expectation) or \(container.expectation)"
        case .paths: return "a path or a list of paths"
        }
    }
}

public struct Field: Sendable {
    public let key: String
    public let shape: Shape
    public let required: Bool
    /// A few words, shown by editors on hover.
    public let title: String
    /// One or two sentences, with the guide's limit where there is one.
    public let help: String

    public init(_ key: String, _ shape: Shape, required: Bool = true, title: String, help: String) {
        self.key = key
        self.shape = shape
        self.required = required
        self.title = title
        self.help = help
    }
}


/// What a JSON Schema adds at a dotted path beyond the shape: a language's limits.
public struct SchemaLimits: Sendable {
    public var of: @Sendable (String) -> [String: JSON]
    public var ofObject: @Sendable (String) -> [String: JSON]

    public init(of: @escaping @Sendable (String) -> [String: JSON],
                ofObject: @escaping @Sendable (String) -> [String: JSON] = { _ in [:] }) {
        self.of = of
        self.ofObject = ofObject
    }

    public static let none = SchemaLimits(of: { _ in [:] })
}

/// A language other than policies as its JSON Schema describes it (the project file, scenarios):
/// the schema generator renders it as it renders the policy language.
public struct LanguageSchema: Sendable {
    public var id: String
    public var title: String
    public var description: String
    /// The schema's `$comment`: where it comes from.
    public var comment: String
    public var fields: [Field]
    public var limits: SchemaLimits
    /// Whether its durations, percents and names refer to the policy schema's definitions.
    public var usesPolicyDefinitions: Bool

    public init(id: String, title: String, description: String, comment: String, fields: [Field],
                limits: SchemaLimits = .none, usesPolicyDefinitions: Bool = false) {
        self.id = id
        self.title = title
        self.description = description
        self.comment = comment
        self.fields = fields
        self.limits = limits
        self.usesPolicyDefinitions = usesPolicyDefinitions
    }
}

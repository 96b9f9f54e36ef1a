import PolicySource

/// The project file, `policyc.yaml` beside `Policies/`: the options a project records once so that
/// every command, the build plugin and the hooks agree without repeating them.
///
/// ```yaml
/// version: 1
/// policies: [Policies]              # the default PATHs of every command
/// out: Generated                    # generate's output folder
/// targets: [swift, kotlin, schema]  # generate's targets
/// kotlinPackage: wandura.policies   # the package of the generated Kotlin
/// ```
///
/// Every key but `version` is optional; a key left out keeps the command's default. Read with the
/// loader and decoder of policies, so it gets the same findings: positions, unknown keys with a
/// did-you-mean, typed values. Paths are as written: the CLI takes them relative to the file's folder.
public struct ProjectConfig: Sendable, Hashable {
    public static let version = 1
    /// The names a project file goes by; a folder walk never takes them for policies.
    public static let fileNames = ["policyc.yaml", "policyc.yml"]

    /// Files and folders of policies (`policies`): what commands check when no PATH is given.
    public var policies: [Located<String>]?
    /// `generate`'s output folder.
    public var out: Located<String>?
    /// `generate`'s targets, in the order written.
    public var targets: Located<[CodeTarget]>?
    /// The package of the generated Kotlin; satisfies `Naming.isKotlinPackage`.
    public var kotlinPackage: Located<String>?

    public init(policies: [Located<String>]? = nil, out: Located<String>? = nil,
                targets: Located<[CodeTarget]>? = nil, kotlinPackage: Located<String>? = nil) {
        self.policies = policies
        self.out = out
        self.targets = targets
        self.kotlinPackage = kotlinPackage
    }

    /// The keys, as the decoder and the schema read them.
    public static let fields: [Field] = [
        Field("version", .integer(min: Int.min, max: Int.max), title: "Project file version",
              help: "The version of the project file's format; must be 1."),
        Field("policies", .list(.string, unique: true), required: false, title: "Policy files and folders",
              help: "What every command checks when no PATH is given, relative to this file's folder. Default: [Policies]."),
        Field("out", .string, required: false, title: "Output folder",
              help: "Where 'policyc generate' writes, relative to this file's folder. Default: Generated."),
        Field("targets", .list(.choice(CodeTarget.allCases.map(\.rawValue)), unique: true), required: false,
              title: "Generated targets",
              help: "What 'policyc generate' writes. Default: " + CodeTarget.defaults.map(\.rawValue).joined(separator: ", ") + "."),
        Field("kotlinPackage", .string, required: false, title: "Kotlin package",
              help: "The package of the generated Kotlin. Default: \(Naming.defaultKotlinPackage)."),
    ]

    /// Bytes → the project file and its findings (file names left empty, as `Checker` leaves them
    /// before it sets them). Any error finding means the file must not be used.
    public static func load(_ bytes: [UInt8], path: String) -> (config: ProjectConfig, diagnostics: [Diagnostic]) {
        let loaded = Loader.load(bytes)
        var diagnostics = loaded.diagnostics
        var config = ProjectConfig()
        if loaded.decodable {
            var decoder = Decoder()
            // The text fixes are made from: a misspelled key or target gets a policy's fix.
            decoder.source = SourceMap.Builder(bytes)
            if let root = loaded.root, !root.isNull {
                let label = Label.plain("the project file")
                let decoded = decoder.decode(root, as: .object(fields), key: label, owner: label, keySpan: Span(.start))
                if let decoded { config = read(decoded, into: &decoder) }
            } else {
                decoder.fail(.missingKey, at: Span(.start), "the project file is empty; it needs at least 'version: \(version)'",
                             help: "write 'version: \(version)' and the keys to set: \(Suggest.andList(fields.dropFirst().map(\.key)))")
            }
            diagnostics += decoder.diagnostics
        }
        for i in diagnostics.indices {
            diagnostics[i].file = path
            for j in diagnostics[i].related.indices where diagnostics[i].related[j].file.isEmpty {
                diagnostics[i].related[j].file = path
            }
        }
        diagnostics.sortForReport()
        return (config, diagnostics)
    }

    /// The project file's findings as a checked file, for `Fixer.fix(_:path:unsafe:check:)`.
    public static func checked(_ bytes: [UInt8], path: String) -> CheckedFile {
        let findings = load(bytes, path: path).diagnostics
        return CheckedFile(path: path, diagnostics: findings, doc: nil, policy: nil, source: findings.isEmpty ? [] : bytes)
    }

    /// The decoded mapping → the typed file; checks beyond the shapes become findings.
    package static func read(_ root: Decoded, into decoder: inout Decoder) -> ProjectConfig {
        var config = ProjectConfig()
        if let v = root["version"], case .integer(let n) = v.value, n != version {
            decoder.fail(.unsupportedVersion, at: v.span,
                         "the project file is version \(n); this policyc reads version \(version)",
                         help: n > version ? "upgrade policyc to read this file" : "write 'version: \(version)'")
            // Another version may mean other keys: nothing else of it is used.
            return config
        }
        if let list = root["policies"], case .list(let items) = list.value {
            var paths: [Located<String>] = []
            for item in items {
                guard case .string(let path) = item.value else { continue }
                if path.isEmpty {
                    decoder.fail(.typeMismatch, at: item.span, "an item of 'policies' is empty; it must name a file or folder")
                } else {
                    paths.append(Located(path, item.span))
                }
            }
            if items.isEmpty, list.complete {
                decoder.fail(.typeMismatch, at: list.span, "'policies' is empty; it needs at least one file or folder",
                             help: "leave 'policies' out for the default, [Policies]")
            } else if paths.count == items.count, list.complete {
                config.policies = paths
            }
        }
        if let out = root["out"], case .string(let path) = out.value {
            if path.isEmpty {
                decoder.fail(.typeMismatch, at: out.span, "'out' is empty; it must name a folder",
                             help: "leave 'out' out for the default, Generated")
            } else {
                config.out = Located(path, out.span)
            }
        }
        if let list = root["targets"], case .list(let items) = list.value {
            let targets = items.compactMap { item -> CodeTarget? in
                guard case .string(let name) = item.value else { return nil }
                return CodeTarget(rawValue: name)
            }
            // Items that did not decode are left out of `items` and have findings of their own.
            if items.isEmpty, list.complete {
                decoder.fail(.typeMismatch, at: list.span, "'targets' is empty; it needs at least one of \(Suggest.orList(CodeTarget.allCases.map(\.rawValue)))",
                             help: "leave 'targets' out for the default, [\(CodeTarget.defaults.map(\.rawValue).joined(separator: ", "))]")
            } else if list.complete, targets.count == items.count {
                config.targets = Located(targets, list.span)
            }
        }
        if let package = root["kotlinPackage"], case .string(let name) = package.value {
            if Naming.isKotlinPackage(name) {
                config.kotlinPackage = Located(name, package.span)
            } else {
                decoder.fail(.typeMismatch, at: package.span,
                             "'kotlinPackage' is '\(printable(name))', which is not a Kotlin package name (dot-separated identifiers, no keywords)",
                             help: "write a package such as \(Naming.defaultKotlinPackage)")
            }
        }
        return config
    }
}

extension ProjectConfig {
    /// The project file as its JSON Schema describes it: `policyc schema --project`.
    public static let schema = LanguageSchema(
        id: "urn:policyc:schema:project:1",
        title: "policyc project file, version \(version)",
        description: "policyc.yaml beside Policies/: the options every policyc command, the build plugin and the hooks read. "
            + "Options given on the command line win.",
        comment: "Generated by policyc from its project file definition. DO NOT EDIT.",
        fields: fields,
        limits: SchemaLimits(of: { path in path == "version" ? ["const": .int(version)] : [:] }))
}

import PolicySource

/// The project file, `policyc.yaml` beside `Policies/`: the options a project records once so that
/// every command, the build plugin and the hooks agree without repeating them.
///
/// ```yaml
/// version: 1
/// policies: [Policies]              # the default PATHs of every command
/// out: Generated                    # generate's output folder (Swift/, Kotlin/, TypeScript/ in it)
/// # or a folder a language:  out: {swift: ios/Policy, kotlin: android/src/main/kotlin, schema: .}
/// kotlinPackageFolders: true        # Kotlin under its package's folders (com/example/…)
/// targets: [swift, kotlin, schema]  # generate's targets
/// kotlinPackage: wandura.policies   # the package of the generated Kotlin
/// guide: 2026-11                    # the edition of the guide's limits
/// waiverMaxDays: 90                 # how far ahead a waiver may expire (at most 365)
/// limits: {interactiveMaxRetries: 2}  # the guide's limits, tightened
/// baseline: policyc-baseline.json   # findings accepted as they are (lint)
/// review: {peakLoad: 20%}           # how much worse diff lets a simulated outage get
/// rulesUrl: https://example.com/rules/  # where SARIF and the editor link each rule's page
/// verify: {endpoint: "/v1/tickets"}  # which recorded requests verify checks (a path glob)
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
    /// `generate`'s folder for each language (`out` as a mapping); nil when `out` is one folder.
    public var outFolders: [CodeTarget: Located<String>]?
    /// Whether Kotlin goes under its package's folders (`com/example/PlaybackPolicy.kt`).
    public var kotlinPackageFolders: Located<Bool>?
    /// `generate`'s targets, in the order written.
    public var targets: Located<[CodeTarget]>?
    /// The package of the generated Kotlin; satisfies `Naming.isKotlinPackage`.
    public var kotlinPackage: Located<String>?
    /// The edition of the guide the limits come from, as written (checked against `Guide.editions`).
    public var guide: Located<String>?
    /// The limits the project sets, each tighter than the edition's.
    public var limits: [LimitKey: Located<LimitValue>] = [:]
    /// How far ahead a waiver may expire, 1 to 365 days.
    public var waiverMaxDays: Located<Int>?
    /// The baseline file lint reads, relative to the project file's folder.
    public var baseline: Located<String>?
    /// How much worse `diff` lets a simulated outage's figures get (`review:`).
    public var review = ReviewThresholds()
    /// Where the rule book's pages are (`rulesUrl`); nil: `RulePages.standard`.
    public var rulesUrl: Located<RulePages>?

    /// The rule book the reports link to.
    public var rulePages: RulePages { rulesUrl?.value ?? .standard }
    /// `verify: {endpoint: GLOB}`: the path of the ticket requests in a recording (`verify`);
    /// nil: every POST whose JSON body has an `episodes` list.
    public var verifyEndpoint: Located<String>?

    public static let maxWaiverMaxDays = 365

    /// The limits checks apply: the edition named (the newest without `guide`), tightened by
    /// `limits`; `file` names the project file in the findings of a tightened limit.
    public func effectiveLimits(file: String, editions: [GuideEdition] = Guide.editions) -> Limits {
        let edition = guide.flatMap { Guide.edition(named: $0.value, in: editions) } ?? editions[editions.count - 1]
        var effective = Limits(edition: edition)
        for key in LimitKey.allCases {
            if let value = limits[key] { effective.set(key, value.value, from: .init(file: file, span: value.span)) }
        }
        return effective
    }

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
        Field("out", .either(.string, .object(CodeTarget.allCases.map { target in
                  Field(target.rawValue, .string, required: false, title: "Folder of the \(target.title)",
                        help: "Where 'policyc generate' writes the \(target.title), relative to this file's folder.")
              })), required: false, title: "Output folder",
              help: "Where 'policyc generate' writes, relative to this file's folder: one folder (Swift/, Kotlin/, TypeScript/ and the schema in it), or a folder a language ({swift: …, kotlin: …, typescript: …, schema: …}). Default: Generated."),
        Field("kotlinPackageFolders", .boolean, required: false, title: "Kotlin in package folders",
              help: "Whether the generated Kotlin goes under its package's folders (com/example/PlaybackPolicy.kt), as Gradle lays out sources. Default: false."),
        Field("targets", .list(.choice(CodeTarget.allCases.map(\.rawValue)), unique: true), required: false,
              title: "Generated targets",
              help: "What 'policyc generate' writes. Default: " + CodeTarget.defaults.map(\.rawValue).joined(separator: ", ") + "."),
        Field("kotlinPackage", .string, required: false, title: "Kotlin package",
              help: "The package of the generated Kotlin. Default: \(Naming.defaultKotlinPackage)."),
        Field("guide", .string, required: false, title: "Edition of the guide",
              help: "The edition of the integration guide the limits come from: "
                + Guide.editions.map(\.name).joined(separator: ", ") + ". Default: the newest, \(Guide.newest.name)."),
        Field("waiverMaxDays", .integer(min: 1, max: maxWaiverMaxDays), required: false, title: "Longest waiver",
              help: "How many days ahead a waiver of a policy may expire, at most \(maxWaiverMaxDays). Default: \(CheckOptions.defaultWaiverMaxDays)."),
        Field("limits", .object(LimitKey.allCases.map { key in
            let shape: Shape
            switch key.kind {
            case .count: shape = .integer(min: 0, max: key.largestCount)
            case .duration: shape = .duration
            case .percent: shape = .percent
            }
            let guide = Guide.newest.values[key].map { "the guide's \($0)" } ?? "the guide sets none"
            return Field(key.rawValue, shape, required: false, title: key.meaning.prefix(1).uppercased() + key.meaning.dropFirst(),
                         help: "The \(key.meaning) (\(guide)); may only be \(key.isMinimum ? "raised" : "lowered"). Checked by \(key.rule.rawValue).")
        }), required: false, title: "Tighter limits",
              help: "The guide's limits made stricter for this project; a looser one is an error (write a waiver in the policy instead)."),
        Field("baseline", .string, required: false, title: "Baseline file",
              help: "Findings recorded by 'policyc lint --write-baseline FILE': lint reports them as notes. Relative to this file's folder."),
        Field("review", .object(ReviewThresholds.fields), required: false, title: "Review thresholds",
              help: "How much worse a figure of a simulated outage may get before 'policyc diff' fails a change as worse (--allow-worse accepts it)."),
        Field("rulesUrl", .string, required: false, title: "Rule book address",
              help: "Where each rule's page is, linked from SARIF (helpUri) and the editor: a folder URL that <rule>.md is appended to, or a URL with {rule} where the rule's id goes. Default: \(RulePages.defaultBase)."),
        Field("verify", .object([
            Field("endpoint", .string, required: false, title: "Ticket endpoint",
                  help: "A glob of the URL path of ticket requests in a recording ('*' within a segment, '**' across them), such as /v1/tickets. "
                    + "Default: every POST whose JSON body has an 'episodes' list."),
        ]), required: false, title: "Recorded traffic",
              help: "What 'policyc verify' reads from HAR recordings."),
    ]

    /// The project file `policyc init --project` writes: the policies at `policies`, the newest
    /// edition of the guide, and the defaults spelled out, so a team sees what it may change.
    public static func starter(policies: String) -> String {
        let folder = Quoting.canBePlain(policies, inFlow: true) && !Quoting.readsAsOtherType(policies)
            ? policies : Quoting.doubleQuoted(policies)
        return """
            # policyc's project file: every policyc command run in this folder reads it.
            version: 1
            # The edition of the integration guide whose limits apply.
            guide: \(Guide.newest.name)
            # The policy files and folders that lint, generate, diff and the other commands read.
            policies: [\(folder)]
            # Where policyc generate writes, and which languages.
            out: Generated
            targets: [swift, kotlin, typescript, schema]

            """
    }

    /// Bytes → the project file and its findings (file names left empty, as `Checker` leaves them
    /// before it sets them). Any error finding means the file must not be used.
    public static func load(_ bytes: [UInt8], path: String) -> (config: ProjectConfig, diagnostics: [Diagnostic]) {
        let loaded = Loader.load(bytes)
        var diagnostics = loaded.diagnostics
        var config = ProjectConfig()
        if loaded.decodable {
            var decoder = PolicyDecoder()
            // The text fixes are made from: a misspelled key or target gets a policy's fix.
            decoder.source = LineIndex(bytes)
            if let root = loaded.root, !root.isNull {
                let label = Label.plain("the project file")
                let decoded = decoder.decode(root, as: .object(fields), key: label, owner: label, keySpan: Span(.start))
                if let decoded { config = read(decoded, into: &decoder) }
            } else {
                decoder.fail(.missingKey, at: Span(.start), "the project file is empty; it needs at least 'version: \(version)'",
                             help: "write 'version: \(version)' and the keys to set: \(Wording.list(fields.dropFirst().map(\.key)))")
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

    /// `out`: one folder, or a folder a language (at least one, none empty).
    static func readOut(_ root: Decoded, into config: inout ProjectConfig, decoder: inout PolicyDecoder) {
        guard let out = root["out"] else { return }
        switch out.value {
        case .string(let path):
            if path.isEmpty {
                decoder.fail(.typeMismatch, at: out.span, "'out' is empty; it must name a folder",
                             help: "leave 'out' out for the default, Generated")
            } else {
                config.out = Located(path, out.span)
            }
        case .object(let entries):
            var folders: [CodeTarget: Located<String>] = [:]
            for entry in entries {
                guard let target = CodeTarget(rawValue: entry.key), case .string(let path) = entry.value.value else { continue }
                if path.isEmpty {
                    decoder.fail(.typeMismatch, at: entry.value.span, "'out.\(target.rawValue)' is empty; it must name a folder")
                } else {
                    folders[target] = Located(path, entry.value.span)
                }
            }
            if entries.isEmpty, entries.failedKeys.isEmpty {
                decoder.fail(.typeMismatch, at: out.span, "'out' is an empty mapping; name a folder for each language generated",
                             help: "such as out: {swift: ios/Policy, kotlin: android/src/main/kotlin}")
            } else if !folders.isEmpty {
                config.outFolders = folders
            }
        default:
            break
        }
    }

    /// The decoded mapping → the typed file; checks beyond the shapes become findings.
    static func read(_ root: Decoded, into decoder: inout PolicyDecoder) -> ProjectConfig {
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
        readOut(root, into: &config, decoder: &decoder)
        if let v = root["kotlinPackageFolders"], case .boolean(let b) = v.value { config.kotlinPackageFolders = Located(b, v.span) }
        if let list = root["targets"], case .list(let items) = list.value {
            let targets = items.compactMap { item -> CodeTarget? in
                guard case .string(let name) = item.value else { return nil }
                return CodeTarget(rawValue: name)
            }
            // Items that did not decode are left out of `items` and have findings of their own.
            if items.isEmpty, list.complete {
                decoder.fail(.typeMismatch, at: list.span, "'targets' is empty; it needs at least one of \(Wording.orList(CodeTarget.allCases.map(\.rawValue)))",
                             help: "leave 'targets' out for the default, [\(CodeTarget.defaults.map(\.rawValue).joined(separator: ", "))]")
            } else if list.complete, targets.count == items.count {
                config.targets = Located(targets, list.span)
            }
        }
        readGuide(root, into: &config, decoder: &decoder)
        if let days = root["waiverMaxDays"], case .integer(let n) = days.value {
            config.waiverMaxDays = Located(n, days.span)
        }
        if let baseline = root["baseline"], case .string(let path) = baseline.value {
            if path.isEmpty {
                decoder.fail(.typeMismatch, at: baseline.span, "'baseline' is empty; it must name a file",
                             help: "leave 'baseline' out to count every finding")
            } else {
                config.baseline = Located(path, baseline.span)
            }
        }
        if let review = root["review"] { config.review = ReviewThresholds.read(review) }
        readRulesUrl(root, into: &config, decoder: &decoder)
        if let endpoint = root["verify"]?["endpoint"], case .string(let glob) = endpoint.value {
            if glob.isEmpty {
                decoder.fail(.typeMismatch, at: endpoint.span, "'verify.endpoint' is empty; it must be a path glob such as /v1/tickets",
                             help: "leave 'endpoint' out to check every POST whose body has an 'episodes' list")
            } else {
                config.verifyEndpoint = Located(glob, endpoint.span)
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

    /// `rulesUrl`: an absolute http(s) address (see `RulePages.problem(with:)`).
    static func readRulesUrl(_ root: Decoded, into config: inout ProjectConfig, decoder: inout PolicyDecoder) {
        guard let url = root["rulesUrl"], case .string(let text) = url.value else { return }
        guard let pages = RulePages(text) else {
            decoder.fail(.typeMismatch, at: url.span,
                         "'rulesUrl' is '\(excerpt(text))', which cannot be the rule book's address: \(RulePages.problem(with: text) ?? "")",
                         help: "write an absolute http or https URL, such as \(RulePages.defaultBase), or leave 'rulesUrl' out for that default")
            return
        }
        config.rulesUrl = Located(pages, url.span)
    }

    /// `guide` and `limits`: an edition this policyc knows, and limits that only tighten it.
    static func readGuide(_ root: Decoded, into config: inout ProjectConfig, decoder: inout PolicyDecoder,
                                  editions: [GuideEdition] = Guide.editions) {
        var edition = editions[editions.count - 1]
        if let guide = root["guide"], case .string(let name) = guide.value {
            if let known = Guide.edition(named: name, in: editions) {
                edition = known
                config.guide = Located(name, guide.span)
            } else {
                let names = editions.map(\.name)
                decoder.fail(.typeMismatch, at: guide.span,
                             "'guide' is '\(excerpt(name))', an edition of the guide this policyc does not know; it knows \(Wording.list(names))",
                             help: Suggest.nearest(name, in: names).map { Suggest.didYouMean(name, $0) }
                                ?? "write guide: \(edition.name), or upgrade policyc for a newer edition")
                // Limits against an unknown edition cannot be judged.
                return
            }
        }
        guard let limits = root["limits"], case .object(let entries) = limits.value else { return }
        let guideLimits = Limits(edition: edition)
        for i in entries.indices {
            guard let key = LimitKey(rawValue: entries[i].key) else { continue }
            let decoded = entries[i].value
            let value: LimitValue
            switch decoded.value {
            case .integer(let n): value = .count(n)
            case .duration(let ms): value = .duration(ms)
            case .percent(let p): value = .percent(p)
            default: continue
            }
            guard guideLimits.tightens(key, value) else {
                let guideValue = edition.values[key].map(String.init(describing:)) ?? "none"
                decoder.fail(.typeMismatch, at: decoded.span,
                             "limits.\(key.rawValue) is \(value), looser than the guide \(edition.name)'s \(guideValue); the project's limits may only tighten the guide's",
                             help: "write \(key.rawValue): \(guideValue) or \(key.isMinimum ? "more" : "less"), or accept the exception in the policy with a waiver (rule \(key.rule.rawValue), an owner and an expiry)")
                continue
            }
            config.limits[key] = Located(value, decoded.span)
        }
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

import PolicySource
import PolicyCheck
import PolicyWorkspace
import PolicyReport

/// The project file as the commands use it. Every command that works on policies starts with
/// `Project.load`: the file named by `--config`, else `policyc.yaml` (or `policyc.yml`) in
/// the working folder, else none (every default as before). Its findings stop the command (exit 2)
/// before anything else runs; options given on the command line override what it says.
package struct Project {
    /// The file read, as given or found; nil when there is none.
    package var file: String?
    package var config = ProjectConfig()
    /// The folder the file's paths are relative to, "" for the working folder.
    package var folder = ""
    /// What policies are checked with: the limits (the file's edition and `limits`), today
    /// (`--today`, else `POLICYC_TODAY`, else the UTC date) and the file's `waiverMaxDays`.
    package var options = Project.defaultOptions

    /// The parents a policy `extends` are read from disk, as every input is.
    static var defaultOptions: CheckOptions {
        var options = CheckOptions()
        options.parents = Files.parents
        return options
    }

    /// No project file: every default.
    package init() {}

    /// `--today`'s text, else `POLICYC_TODAY`, else nil (the UTC date when a waiver needs it); a
    /// value that is not a date is an error.
    package static func today(given: String?) -> Result<Day?, Problem> {
        if let given {
            guard let day = Day(given) else {
                return .failure(Problem(message: "'--today' is '\(printable(given))', not a date; write YYYY-MM-DD, such as 2027-03-31"))
            }
            return .success(day)
        }
        if let text = Output.environment("POLICYC_TODAY"), !text.isEmpty {
            guard let day = Day(text) else {
                return .failure(Problem(message: "POLICYC_TODAY is '\(printable(text))', not a date; write YYYY-MM-DD, such as 2027-03-31"))
            }
            return .success(day)
        }
        return .success(nil)
    }

    /// The paths to check when none is given and the project file names none; like every path
    /// of the project file, relative to its folder.
    package static let defaultFolder = ProjectLayout.defaultFolder
    /// `generate`'s output folder when neither `--out` nor the project file names one.
    package static let defaultOut = ProjectLayout.defaultOut

    /// Reads the project file; nil after its findings, or why it cannot be read, went to stderr
    /// (the command then exits 2). Without `--config` the working folder's file is read, unless
    /// `lookInWorkingFolder` is false (a build plugin's run, whose folder is not the project's).
    /// With `text`, those bytes are read as the project file's (`lint --diff` of a fixed one).
    package static func load(config: String?, today given: String?, lookInWorkingFolder: Bool = true, text: [UInt8]? = nil) -> Project? {
        let today: Day?
        switch Self.today(given: given) {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
            return nil
        case .success(let day):
            today = day
        }
        guard var project = loadFile(config: config, lookInWorkingFolder: lookInWorkingFolder, text: text) else { return nil }
        project.options.today = today
        return project
    }

    private static func loadFile(config: String?, lookInWorkingFolder: Bool, text: [UInt8]?) -> Project? {
        let path: String
        switch locate(config: config, lookInWorkingFolder: lookInWorkingFolder) {
        case .failure: return nil
        case .success(nil): return Project()
        case .success(let found?): path = found
        }
        let bytes: [UInt8]
        if let text {
            bytes = text
        } else {
            switch Files.read(path) {
            case .failure(let error):
                Output.err("error: \(error.message)\n")
                return nil
            case .success(let b):
                bytes = b
            }
        }
        let loaded = ProjectConfig.load(bytes, path: path)
        if !loaded.diagnostics.isEmpty {
            Output.err(Reporters.text(loaded.diagnostics, source: bytes, color: Output.useColor(fd: 2)))
            let errors = loaded.diagnostics.count { $0.severity == .error }
            if errors > 0 {
                Output.err("\(printable(path)): \(errors) error\(errors == 1 ? "" : "s") in the project file; nothing else was done\n")
                return nil
            }
        }
        return Project(path, loaded.config)
    }

    /// `--baseline FILE`, else the project file's `baseline`, read into `options` (lint and diff
    /// hold the same findings); false once why it cannot be read went to stderr.
    package mutating func readBaseline(given: String?) -> Bool {
        guard let path = given ?? config.baseline.map({ resolve($0.value) }) else { return true }
        let parsed = Files.read(path).map { Baseline.parse($0, file: path) }
        switch parsed {
        case .failure(let error):
            Output.err("error: \(error.message)\n")
        case .success(.failure(let problem)):
            Output.err("error: \(problem.message)\n")
        case .success(.success(let baseline)):
            options.baseline = baseline
            return true
        }
        return false
    }

    /// Which edition of the guide applies when the project file names none: said once by lint,
    /// so a repository knows what it was checked against (without a project file there is
    /// nothing to write it in, and nothing is said).
    package var editionNote: String? {
        guard let file, config.guide == nil else { return nil }
        let newest = Guide.newest.name
        let applies = config.limits.isEmpty ? "the newest, \(newest), applies" : "its limits tighten the newest, \(newest)"
        return "note: \(printable(file)) names no guide edition; \(applies) (write 'guide: \(newest)' to keep to it)\n"
    }

    package struct Reported: Error {}

    /// What is wrong with a value given for the project (a `--today` that is not a date).
    package struct Problem: Error {
        package var message: String
    }

    /// The project file to read: `--config`'s, else the working folder's (unless not
    /// `lookInWorkingFolder`); nil for none; a failure once why went to stderr.
    package static func locate(config given: String?, lookInWorkingFolder: Bool = true) -> Result<String?, Reported> {
        if let given {
            guard !given.isEmpty else {
                Output.err("error: '--config' needs a file\n")
                return .failure(Reported())
            }
            return .success(given)
        }
        guard lookInWorkingFolder else { return .success(nil) }
        let present = ProjectConfig.fileNames.filter(Files.exists)
        if present.count > 1 {
            Output.err("error: both \(present.joined(separator: " and ")) are here; keep one project file\n")
            return .failure(Reported())
        }
        return .success(present.first)
    }

    /// `lint --fix`, `--unsafe-fixes` and `--diff` of the project file, before it is read: its
    /// mistakes get the fixes a policy's get (a misspelled key or target). Written as a policy
    /// is; with `diff`, shown and not written, and its fixed text is what is read after.
    /// Nil when the run goes on; else its exit status.
    package static func fix(config: String?, unsafe: Bool, diff: Bool) -> (status: Int32?, fixed: [UInt8]?, applied: Int) {
        guard case .success(let found?) = locate(config: config), case .success(let bytes) = Files.read(found) else { return (nil, nil, 0) }
        let outcome = Fixer.fix(bytes, path: found, unsafe: unsafe, check: ProjectConfig.checked)
        guard outcome.changed else { return (nil, nil, 0) }
        let report = FixReport.lines(outcome.applied, path: found, wouldFix: diff)
        if diff {
            Output.out(UnifiedDiff.render(old: bytes, new: outcome.bytes, path: found))
            Output.err(report)
            return (nil, outcome.bytes, outcome.applied.count)
        }
        if case .failure(let f) = OutputFolder.replaceFile(found, with: outcome.bytes) {
            Output.err("error: \(f.message)\n")
            return (2, nil, 0)
        }
        Output.err(report)
        return (nil, nil, outcome.applied.count)
    }

    /// A path written in the project file, as seen from the working folder.
    package func resolve(_ path: String) -> String { ProjectLayout(folder: folder).resolve(path) }

    /// What commands check when no PATH is given: the file's `policies`, or `Policies/` beside it.
    package var defaultPaths: [String] {
        config.policies.map { $0.map { resolve($0.value) } } ?? [resolve(Self.defaultFolder)]
    }

    /// `generate`'s output folder as seen from the working folder: the file's `out`, or
    /// `Generated/` beside it.
    package var out: String { resolve(config.out?.value ?? Self.defaultOut) }

    /// The folder the JSON Schema goes in: `out`'s `schema` when it names a folder a language.
    package var schemaFolder: String { config.outFolders?[.schema].map { resolve($0.value) } ?? out }

    /// Where a default path was written, for messages: `policyc.yaml:2:12`.
    package func origin(ofDefault path: String) -> String? {
        guard let file, let entry = config.policies?.first(where: { resolve($0.value) == path }) else { return nil }
        return "\(printable(file)):\(entry.span.start.line):\(entry.span.start.column)"
    }
}

extension Project {
    /// The project of a file at `path` that reads as `config`.
    package init(_ path: String, _ config: ProjectConfig) {
        file = path
        self.config = config
        folder = ProjectLayout(file: path).folder
        options.limits = config.effectiveLimits(file: path)
        if let days = config.waiverMaxDays { options.waiverMaxDays = days.value }
        if let targets = config.targets { options.targets = Set(targets.value) }
    }
}

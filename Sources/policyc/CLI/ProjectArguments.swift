import PolicyKit

/// The project file's options on the command line; `PolicySystem`'s `Project` does the reading.
extension Project {
    /// The option of every command that reads the project file.
    static let option = OptionSpec(
        name: "--config", valueName: "FILE",
        help: "The project file to read (default: ./policyc.yaml when there is one).")

    /// The option of the commands that judge waivers.
    static let todayOption = OptionSpec(
        name: "--today", valueName: "DATE",
        help: "The day waivers are judged by, such as 2027-03-31 (default: $POLICYC_TODAY, else the UTC date).")

    /// The project of `--config` (else the working folder's file), judged on `--today`; nil
    /// once why not went to stderr (exit 2).
    static func load(_ args: ParsedArguments, lookInWorkingFolder: Bool = true, text: [UInt8]? = nil) -> Project? {
        load(config: args.value(option.name), today: args.value(todayOption.name), lookInWorkingFolder: lookInWorkingFolder, text: text)
    }

    /// The project and the policy files its PATHs name (else its own), for a command that reads
    /// files only (standard input is lint's); nil once why not was said: the exit status is 2.
    static func loadWithPolicies(_ args: ParsedArguments, command spec: CommandSpec) -> (project: Project, paths: [String])? {
        if args.positionals.contains("-") {
            _ = CommandLine.usageError("standard input ('-') is accepted by 'lint' only", command: spec)
            return nil
        }
        guard let project = load(args),
              let paths = Workspace.inputsOrReport(args.positionals, project: project, allowStdin: false) else { return nil }
        return (project, paths)
    }

    /// `--baseline FILE`, else the project file's baseline, read into `options`.
    mutating func readBaseline(_ args: ParsedArguments) -> Bool {
        readBaseline(given: args.value("--baseline"))
    }

    static func fix(_ args: ParsedArguments, unsafe: Bool, diff: Bool) -> (status: Int32?, fixed: [UInt8]?, applied: Int) {
        fix(config: args.value(option.name), unsafe: unsafe, diff: diff)
    }
}

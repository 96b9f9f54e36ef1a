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

    /// `--baseline FILE`, else the project file's baseline, read into `options`.
    mutating func readBaseline(_ args: ParsedArguments) -> Bool {
        readBaseline(given: args.value("--baseline"))
    }

    static func fix(_ args: ParsedArguments, unsafe: Bool, diff: Bool) -> (status: Int32?, fixed: [UInt8]?, applied: Int) {
        fix(config: args.value(option.name), unsafe: unsafe, diff: diff)
    }
}

import PolicyKit

/// Every command, in the order `policyc --help` lists them.
let commands: [CommandSpec] = [
    Lint.spec, Generate.spec, Schema.spec, Diff.spec, Explain.spec, Rules.spec, Init.spec,
    Simulate.spec,
]

extension CommandLine {
    static let overview = """
        OVERVIEW: Lint, generate and review client retry policies for the Wandura playback API.

        USAGE: policyc <command> [options] [<path> ...]

        A <path> is a policy file, a folder (every *.yaml and *.yml under it, sorted), or - for
        standard input (lint only). Without a path, policyc works on Policies/.


        """

    static func main(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            Output.err(overview + commandList + "\nSee 'policyc help <command>' for a command's options.\n")
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            if first == "help", args.count > 1 {
                guard let spec = commands.first(where: { $0.name == args[1] }) else {
                    return usageError("unknown command '\(printable(args[1]))'", command: nil)
                }
                Output.out(ArgumentParser.help(for: spec))
                return 0
            }
            Output.out(overview + commandList + "\nSee 'policyc help <command>' for a command's options.\n")
            return 0
        case "--version", "version":
            Output.out(PolicycVersion.string + "\n")
            return 0
        default:
            break
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            let hint = Suggest.nearest(first, in: commands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            let what = first.hasPrefix("-") ? "unknown option '\(printable(first))'" : "unknown command '\(printable(first))'"
            return usageError(what + hint, command: nil)
        }
        switch ArgumentParser.parse(Array(args.dropFirst()), for: spec) {
        case .failure(let error):
            return usageError(error.message, command: spec)
        case .success(let parsed):
            if parsed.flag("--help") {
                Output.out(ArgumentParser.help(for: spec))
                return 0
            }
            return spec.run(parsed)
        }
    }

    static var commandList: String {
        "COMMANDS:\n" + commands.map { ArgumentParser.row($0.name, $0.abstract) }.joined()
            + "\nOPTIONS:\n" + ArgumentParser.row("--version", "Show the version.")
            + ArgumentParser.row("-h, --help", "Show help information.")
    }

    /// `error: …`, the usage line and where to read more; exit 2.
    static func usageError(_ message: String, command: CommandSpec?) -> Int32 {
        if let command {
            Output.err("error: \(message)\nUsage: \(command.usage)\n  See 'policyc \(command.name) --help'.\n")
        } else {
            Output.err("error: \(message)\nUsage: policyc <command> [options] [<path> ...]\n  See 'policyc --help'.\n")
        }
        return 2
    }
}

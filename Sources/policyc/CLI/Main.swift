import PolicyKit

/// Every command, in the order `policyc --help` lists them.
let commands: [CommandSpec] = [
    Lint.spec, Fmt.spec, Generate.spec, Schema.spec, Diff.spec, Explain.spec, Show.spec, Rules.spec, Waivers.spec, Init.spec, Simulate.spec, Verify.spec, Lsp.spec,
]

extension CommandLine {
    static let overview = """
        OVERVIEW: Lint, generate and review client retry policies for the Wandura playback API.

        USAGE: policyc COMMAND [OPTIONS] [PATH ...]

        A PATH is a policy file, a folder (every *.yaml and *.yml under it, sorted), or - for
        standard input (lint only). Without a PATH, policyc works on the policies that the
        project file (policyc.yaml, when there is one) lists, else on Policies/.


        """

    static func main(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            Output.err(overview + commandList + "\nSee 'policyc help COMMAND' for a command's options.\n")
            return 2
        }
        switch first {
        case "-h", "--help", "help":
            if first == "help", args.count > 1 {
                guard let spec = commands.first(where: { $0.name == args[1] }) else {
                    return usageError(unknownCommand(args[1]), command: nil)
                }
                Output.out(ArgumentParser.help(for: spec))
                return 0
            }
            Output.out(overview + commandList + "\nSee 'policyc help COMMAND' for a command's options.\n")
            return 0
        case "--version", "version":
            // The commit, when the build knew it (Plugins/BuildInfoPlugin): `0.3.0 (1a2b3c4)`.
            Output.out(PolicycVersion.string + (BuildInfo.commit.map { " (\($0))" } ?? "") + "\n")
            return 0
        default:
            break
        }
        guard let spec = commands.first(where: { $0.name == first }) else {
            return usageError(unknownCommand(first), command: nil)
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

    /// `unknown command 'lnit'; did you mean 'lint'?`, the same for `policyc lnit` and `policyc help lnit`.
    static func unknownCommand(_ name: String) -> String {
        let hint = Suggest.nearest(name, in: commands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
        let what = name.hasPrefix("-") ? "unknown option '\(printable(name))'" : "unknown command '\(printable(name))'"
        return what + hint
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
            Output.err("error: \(message)\nUsage: policyc COMMAND [OPTIONS] [PATH ...]\n  See 'policyc --help'.\n")
        }
        return 2
    }
}

import PolicyKit

enum Lsp {
    static let spec = CommandSpec(
        name: "lsp",
        abstract: "Runs the language server: findings, hover, completion and fixes in an editor.",
        usage: "policyc lsp",
        options: [],
        discussion: """
            Speaks the Language Server Protocol 3.17 over standard input and output; an editor
            starts it and talks to it (see Docs/editors.md for VS Code, Neovim, Helix and
            JetBrains IDEs). Findings are those of 'policyc lint', pushed when a policy is
            opened, changed or saved, for the policies 'policyc lint' checks in each workspace
            folder (the project file's, else Policies/, else every *.yaml and *.yml); other YAML
            in a workspace folder (a CI workflow, say) gets none. Rules across files use the same
            policies, an open document taking the place of its file. A project file and a
            scenario file get their own findings. Positions are counted in UTF-8 when the
            editor offers it, else in UTF-16.

            Standard output carries protocol messages only; problems with the input (a broken
            header, a message that is not JSON, a message over 16 MiB) are answered with
            JSON-RPC errors, and the server goes on.

            EXIT STATUS:
              0  'exit' after 'shutdown'
              1  'exit' without 'shutdown', or the input ended first
              2  usage error
            """,
        run: run)

    static func run(_ args: ParsedArguments) -> Int32 {
        if let extra = args.positionals.first {
            return CommandLine.usageError("unexpected argument '\(printable(extra))'; 'lsp' takes no path (the editor names the files)", command: spec)
        }
        return EditorSession.serve()
    }
}

import PolicySource

extension Rule {
    static let inputLimit = Rule(
        .inputLimit, .error,
        summary: "the file is over 1 MiB, nests deeper than 32 levels, or is not UTF-8",
        reference: nil,
        examples: [
            .canonical(replacing: "description: Ticket requests made by the iOS and Android players.",
                       with: "description: " + String(repeating: "[", count: 31) + "↓[x"
                           + String(repeating: "]", count: 32),
                       triggers: true,
                       note: "33 levels of nesting (the root mapping is the first); nothing more is checked"),
            .canonical(replacing: "description: Ticket requests made by the iOS and Android players.",
                       with: "description: Ticket requests — für Zuschauer, 視聴者のため 🎬", triggers: false,
                       note: "any UTF-8 text"),
            .canonical(replacing: "description: Ticket requests made by the iOS and Android players.",
                       with: "description: " + String(repeating: "[", count: 31) + "x"
                           + String(repeating: "]", count: 31),
                       triggers: false, note: "32 levels are allowed (a description must still be text)",
                       alsoFinds: [.typeMismatch]),
        ])
}

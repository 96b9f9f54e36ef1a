import PolicySource

/// A policy as its children's `extends` leaves it: its tree over its parents', each node where it
/// was written. What `policyc show` prints; checking it is the checker's work, not this.
public struct EffectivePolicy: Sendable {
    /// The merged tree without `extends` (nil when the file could not be read as YAML).
    public var root: Node?
    /// Where each part of it was written (the file alone when it extends nothing).
    public var inheritance: Inheritance
    /// What kept it from being made whole: the file's YAML findings and those about its parents,
    /// each in the file it stands in.
    public var diagnostics: [Diagnostic]

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// `bytes`, read from `path`, over the parents `options.parents` gives.
    public init(_ bytes: [UInt8], path: String, options: CheckOptions = CheckOptions()) {
        var loaded = Loader.load(bytes, reading: nil)
        inheritance = Inheritance(child: path, bytes: bytes)
        diagnostics = loaded.diagnostics
        if loaded.decodable, ParentChain.extends(loaded.root) {
            let effective = ParentChain.effective(loaded.root.take()!, path: path, bytes: bytes,
                                                  reader: options.parents, reading: nil)
            loaded.root = effective.root
            inheritance = effective.inheritance
            diagnostics += effective.diagnostics
        }
        root = loaded.decodable ? loaded.root.map { TreeMerge.removing(["extends"], from: $0) } : nil
        for i in diagnostics.indices { diagnostics[i].file = path }
        inheritance.relocate(&diagnostics)
    }
}

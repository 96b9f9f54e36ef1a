/// Where the project file's paths lead: each is relative to the folder of the file, and is seen
/// from the working folder joined to it. Without a project file, the working folder.
package struct ProjectLayout: Sendable, Equatable {
    /// The paths checked when no PATH is given and the project file names none.
    package static let defaultFolder = "Policies"
    /// `generate`'s output folder when neither `--out` nor the project file names one.
    package static let defaultOut = "Generated"

    /// The folder the file's paths are relative to, "" for the working folder.
    package var folder: String

    package init(folder: String = "") {
        self.folder = folder
    }

    /// The layout of the project file at `file` (as given or found).
    package init(file: String) {
        folder = PolicyPaths.folder(of: file)
    }

    /// A path written in the project file, as seen from the working folder.
    package func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || folder.isEmpty || folder == "." { return path }
        return (folder.hasSuffix("/") ? folder : folder + "/") + path
    }
}

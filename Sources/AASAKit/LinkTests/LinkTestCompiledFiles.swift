/// Association files compiled before the run that tests them, so that the
/// compile can overlap other work: the CLI compiles its one file on one
/// core while it reads and scans the links file on the other.
///
/// A run given these uses them for the files they hold (the same JSON
/// value, as ``CompiledSite/compile(_:)`` shares them) and compiles the
/// others itself; what a run decides does not depend on which it did.
public struct LinkTestCompiledFiles: Sendable {
    private let files: [AASAFile]
    private let sites: [CompiledSite]

    /// Compiles `files` now, the distinct ones across the cores.
    public init(_ files: [AASAFile]) {
        self.files = files
        sites = CompiledSite.compile(files).sites
    }

    /// How many files are held.
    public var count: Int { files.count }

    /// The compiled form of `file`, when it is one of these.
    func site(for file: AASAFile) -> CompiledSite? {
        files.firstIndex { $0.json == file.json }.map { sites[$0] }
    }
}

import AASAKit

/// One host of a load: its directory read (``HostReader``) and the files
/// that changed validated (``FileValidator``), in one job, so the hosts of a
/// load can be spread over threads. The bytes read are dropped once
/// validated: only the verdict waits for the loader to put the hosts
/// together in order.
struct HostLoad {
    /// A file of the host after reading and validation.
    enum File {
        /// Served as is (unchanged, same bytes, or the previous good version
        /// kept after a failure to read).
        case served(ServedFile)
        /// Read and validated; `previous` stays served if it was rejected.
        case validated(FileValidator.Verdict, path: String, stamp: FileStamp, previous: ServedFile?)
    }

    /// The host as the previous load served it.
    let previous: SiteHost?
    /// By kind, in two fields rather than a dictionary: a load holds one
    /// of these per host until the hosts are put together.
    var appleAppSiteAssociation: File?
    var assetLinks: File?
    var identity: LoadedIdentity?
    var issues: [LoadIssue]
    var rejected: [String: RejectedFile]
    /// Files missing now, still served from the previous load.
    var missing: [String]

    init(
        _ host: DirectoryScan.HostDirectory,
        previous: SiteHost?,
        reader: HostReader,
        validator: FileValidator,
        gzip: GzipPool
    ) {
        let read = reader.read(host, previous: previous)
        self.previous = previous
        identity = read.identity
        issues = read.issues
        rejected = read.rejected
        missing = read.missing
        appleAppSiteAssociation = read.files[.appleAppSiteAssociation].map {
            Self.file($0, validator: validator, gzip: gzip)
        }
        assetLinks = read.files[.assetLinks].map { Self.file($0, validator: validator, gzip: gzip) }
    }

    func file(_ kind: SiteFile) -> File? {
        switch kind {
        case .appleAppSiteAssociation: appleAppSiteAssociation
        case .assetLinks: assetLinks
        }
    }

    private static func file(_ state: HostReader.FileState, validator: FileValidator, gzip: GzipPool) -> File {
        switch state {
        case .served(let file):
            .served(file)
        case .pending(let candidate, let previous):
            .validated(
                validator.validate(candidate, gzip: gzip),
                path: candidate.path,
                stamp: candidate.stamp,
                previous: previous
            )
        }
    }
}

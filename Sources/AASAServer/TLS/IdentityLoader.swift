import Foundation

/// Loads a certificate and key through the loader's file system (so a
/// host's `tls/` directory is read like its other files, never through a
/// symlink leaving the served directory), reusing the previous identity
/// while neither file changed.
struct IdentityLoader {
    /// PEM chains are a few kilobytes; this only bounds a hostile file.
    static let maximumFileSize = 1 << 20

    /// SIGHUP: parse again even when the stamps are unchanged.
    let force: Bool
    let now: Date

    private let reader = FileReader(limit: IdentityLoader.maximumFileSize)

    init(force: Bool, now: Date = Date()) {
        self.force = force
        self.now = now
    }

    /// Loads or reuses the identity in the open `certificate` and `key`; with
    /// `host`, the certificate must name it.
    func load(
        certificate: any OpenFile,
        key: any OpenFile,
        host: String?,
        previous: LoadedIdentity?
    ) throws(TLSIdentity.Problem) -> LoadedIdentity {
        do {
            let certificateStamp = try reader.stamp(of: certificate)
            let keyStamp = try reader.stamp(of: key)
            if let unchanged = try reuse(previous, certificate: certificateStamp, key: keyStamp) {
                return unchanged
            }
            let certificatePEM = try pem(certificate, stamp: certificateStamp)
            let keyPEM = try pem(key, stamp: keyStamp)
            let identity = try TLSIdentity(
                certificatePEM: certificatePEM.text,
                keyPEM: keyPEM.text,
                host: host,
                now: now
            )
            return LoadedIdentity(identity: identity, certificateStamp: certificatePEM.stamp, keyStamp: keyPEM.stamp)
        } catch let problem as TLSIdentity.Problem {
            throw problem
        } catch {
            throw TLSIdentity.Problem(description: "\(error)")
        }
    }

    /// `previous` again when its files still have these stamps (and no
    /// SIGHUP forces a parse); nil when they changed. A poll asks this with
    /// the stamps of the files' entries, before opening them.
    func reuse(
        _ previous: LoadedIdentity?,
        certificate: FileStamp,
        key: FileStamp
    ) throws(TLSIdentity.Problem) -> LoadedIdentity? {
        guard !force, let previous, previous.certificateStamp == certificate, previous.keyStamp == key else {
            return nil
        }
        // Unchanged files, but time passes: expiry is checked on every load.
        guard previous.identity.notValidAfter > now else {
            throw TLSIdentity.Problem(
                description: "the certificate expired on \(previous.identity.notValidAfter.formatted(.iso8601))"
            )
        }
        return previous
    }

    private func pem(_ file: any OpenFile, stamp: FileStamp) throws -> (text: String, stamp: FileStamp) {
        let version = try reader.read(file, stamp: stamp)
        guard case .complete(let bytes) = version.contents else {
            throw TLSIdentity.Problem(description: "\(file.path): larger than \(Self.maximumFileSize) bytes")
        }
        return (String(decoding: bytes, as: UTF8.self), version.stamp)
    }
}

import Foundation
import SystemPackage

/// The directory holding the development CA: `ca.pem`, `ca-key.pem` (mode
/// 0600, in a directory of mode 0700) and the phone's profile. Made once,
/// kept across runs: re-running only renews the leaves, so a phone that
/// trusts the CA keeps trusting every certificate it signs.
public struct DevCADirectory: Sendable {
    public static let certificateFileName = "ca.pem"
    public static let keyFileName = "ca-key.pem"

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_CONFIG_HOME/aasa/dev-ca`, else `~/.config/aasa/dev-ca`, on macOS
    /// as on Linux: one place to document, outside any repository.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/aasa/dev-ca"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/aasa/dev-ca"
    }

    public var certificatePath: String { path + "/" + Self.certificateFileName }
    public var keyPath: String { path + "/" + Self.keyFileName }
    public var profilePath: String { path + "/" + ConfigurationProfile.fileName }

    /// The CA, read from the directory, or made and written there when the
    /// directory has none. The profile is (re)written when missing.
    public func loadOrCreate(
        now: Date = Date()
    ) throws(DevCAError) -> (authority: DevCertificateAuthority, created: Bool) {
        let manager = FileManager.default
        let hasCertificate = manager.fileExists(atPath: certificatePath)
        let hasKey = manager.fileExists(atPath: keyPath)
        let authority: DevCertificateAuthority
        let created: Bool
        switch (hasCertificate, hasKey) {
        case (true, true):
            authority = try load(now: now)
            created = false
        case (false, false):
            authority = try create(now: now)
            created = true
        case (true, false):
            throw .incomplete(present: certificatePath, missing: keyPath)
        case (false, true):
            throw .incomplete(present: keyPath, missing: certificatePath)
        }
        if created || !manager.fileExists(atPath: profilePath) {
            let profile: Data
            do {
                profile = try ConfigurationProfile.data(for: authority)
            } catch {
                throw .cannotWrite(path: profilePath, reason: "\(error)")
            }
            try write(Array(profile), to: profilePath, permissions: PrivateFile.readable)
        }
        return (authority, created)
    }

    /// Refuses a CA directory at or below `servedDirectory`, symlinks resolved.
    public func ensureOutside(servedDirectory: String) throws(DevCAError) {
        let ca = Self.canonical(path)
        let served = Self.canonical(servedDirectory)
        if ca == served || ca.hasPrefix(served.hasSuffix("/") ? served : served + "/") {
            throw .insideServedDirectory(caDirectory: path, servedDirectory: servedDirectory)
        }
    }

    private func load(now: Date) throws(DevCAError) -> DevCertificateAuthority {
        let certificatePEM: String
        let keyPEM: String
        do {
            certificatePEM = try String(contentsOfFile: certificatePath, encoding: .utf8)
        } catch {
            throw .unreadable(path: certificatePath, reason: error.localizedDescription)
        }
        do {
            keyPEM = try String(contentsOfFile: keyPath, encoding: .utf8)
        } catch {
            throw .unreadable(path: keyPath, reason: error.localizedDescription)
        }
        do {
            return try DevCertificateAuthority(certificatePEM: certificatePEM, keyPEM: keyPEM, now: now)
        } catch {
            throw .invalid(path: certificatePath, problem: error.description)
        }
    }

    private func create(now: Date) throws(DevCAError) -> DevCertificateAuthority {
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .cannotWrite(path: path, reason: error.localizedDescription)
        }
        let authority: DevCertificateAuthority
        let certificatePEM: String
        let keyPEM: String
        do {
            authority = try DevCertificateAuthority(now: now)
            certificatePEM = try authority.certificatePEM
            keyPEM = try authority.keyPEM
        } catch {
            throw .cannotWrite(path: certificatePath, reason: "\(error)")
        }
        // The key first: a certificate never exists without its key.
        try write(Array(keyPEM.utf8), to: keyPath, permissions: PrivateFile.ownerOnly)
        try write(Array(certificatePEM.utf8), to: certificatePath, permissions: PrivateFile.readable)
        return authority
    }

    private func write(_ bytes: [UInt8], to path: String, permissions: FilePermissions) throws(DevCAError) {
        do {
            try PrivateFile.write(bytes, to: path, permissions: permissions)
        } catch {
            throw .cannotWrite(path: path, reason: error.description)
        }
    }

    /// The absolute path with symlinks resolved as far as it exists, the
    /// rest (not made yet) appended as written.
    static func canonical(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath().path
        for component in rest {
            resolved += (resolved.hasSuffix("/") ? "" : "/") + component
        }
        return resolved
    }
}

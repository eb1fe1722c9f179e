/// The open-file limit cannot hold the origin's reserve of descriptors plus
/// one connection per listener, even after raising it as far as allowed.
/// `aasa serve` stops at startup with this (exit 2): a server that could
/// only fail its reloads or refuse every connection would fail silently.
public struct DescriptorShortage: Error, Sendable, Equatable, CustomStringConvertible {
    /// The soft limit in force (after any raise).
    public let limit: Int
    public let hardLimit: Int
    /// Descriptors kept free of connections (listeners, event loops, loader).
    public let reserve: Int
    /// The least limit that serves: the reserve plus one connection per listener.
    public let minimum: Int
    /// The limit at which every configured connection cap fits.
    public let needed: Int

    public var description: String {
        "the open-file limit (RLIMIT_NOFILE) is \(limit) (hard limit \(hardLimit)), too low to serve: "
            + "\(reserve) descriptors are kept for the listeners, event loops and the loader, and every "
            + "connection needs one more; at least \(minimum) are needed, \(needed) for the configured "
            + "connection caps. \(Self.howToRaise(to: needed))"
    }

    /// The ways to raise the limit, for the warning and the error.
    static func howToRaise(to needed: Int) -> String {
        "Raise it with `ulimit -n \(needed)` before starting, `LimitNOFILE=\(needed)` in a systemd unit or "
            + "`docker run --ulimit nofile=\(needed)`, or lower limits.maxConnections."
    }
}

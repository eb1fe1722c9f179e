/// Who a statement speaks for.
public enum AssetLinksTarget: Sendable, Hashable {
    /// An Android app, identified by package name and signing certificates.
    case androidApp(packageName: String, fingerprints: [String])
    /// A web site (an origin, as written).
    case web(site: String)
    /// Any other namespace (`ios_app`, or one Google does not know).
    case other(namespace: String)

    /// Reads a `target` object; `nil` when it is not an object with a string
    /// `namespace`. Lenient: wrongly typed members read as absent (the
    /// schema reports them).
    init?(_ value: JSONValue?) {
        guard let object = value?.objectValue, let namespace = object["namespace"]?.stringValue else { return nil }
        switch namespace {
        case "android_app":
            self = .androidApp(
                packageName: object["package_name"]?.stringValue ?? "",
                fingerprints: object["sha256_cert_fingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? []
            )
        case "web":
            self = .web(site: object["site"]?.stringValue ?? "")
        default:
            self = .other(namespace: namespace)
        }
    }

    /// The package name of an `android_app` target.
    public var packageName: String? {
        if case .androidApp(let name, _) = self { return name }
        return nil
    }
}

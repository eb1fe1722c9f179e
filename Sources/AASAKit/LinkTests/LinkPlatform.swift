/// Which app a links entry is about: the iOS app, judged by the host's
/// `apple-app-site-association`, or the Android app, judged by the dynamic
/// App Link rules of the host's `assetlinks.json`.
public enum LinkPlatform: String, Sendable, Hashable, CaseIterable {
    case apple
    case android
}

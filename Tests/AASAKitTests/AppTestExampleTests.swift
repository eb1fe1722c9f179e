import AASAKit
import Foundation
import Testing

/// The README's example of an app's own test ("the routes the app handles
/// and its AASA file agree"), run against the demo brand, so the example
/// keeps compiling against AASAKit's public API and keeps saying what it says.
@Suite("README: AASAKit in an app's tests")
struct AppTestExampleTests {
    /// What an app's deep-link router claims to handle, and what it leaves to
    /// the browser.
    static let handled = [
        "https://pastaio.example/it/menu/primi/carbonara", "https://pastaio.example/en/order/track/1",
    ]
    static let webOnly = ["https://pastaio.example/it/ordina/pagamento/3ds"]

    static let file: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("aasa/pastaio.example/apple-app-site-association")
        return (try? [UInt8](Data(contentsOf: url))) ?? []
    }()

    @Test func theFileIsValid() {
        let report = AASAValidator().validate(bytes: Self.file).locating(in: Self.file)
        #expect(!report.hasErrors, "\(report.diagnostics)")
    }

    @Test(arguments: handled)
    func everyHandledRouteOpensTheApp(_ link: String) throws {
        let matcher = AASAMatcher(
            file: AASAFile(json: try JSONParser().parse(Self.file).value),
            domain: "pastaio.example"
        )
        let result = matcher.evaluate(try AASAURL(link), appID: "7KQ2M4XW9H.com.pastaio.app")
        #expect(result.decision == .matched, "\(link): \(result.reason)")
    }

    @Test(arguments: webOnly)
    func webOnlyPagesStayInTheBrowser(_ link: String) throws {
        let matcher = AASAMatcher(
            file: AASAFile(json: try JSONParser().parse(Self.file).value),
            domain: "pastaio.example"
        )
        let result = matcher.evaluate(try AASAURL(link), appID: "7KQ2M4XW9H.com.pastaio.app")
        #expect(result.decision != .matched, "\(link): \(result.reason)")
    }
}

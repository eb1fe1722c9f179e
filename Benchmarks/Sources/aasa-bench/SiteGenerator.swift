import Foundation

/// Writes the served trees: `DIR/aasa/dNNNN.bench.example/apple-app-site-association`
/// (valid, ~2 KB, pretty-printed like a hand-written file) for `aasa serve`,
/// the same files hard-linked at `DIR/www/<host>/.well-known/…` for nginx
/// "files" (`root DIR/www/$host`), and `DIR/nginx-map.conf`, the same bodies
/// inline in a `map $host` block for nginx "map".
///
/// The served files use no `$(…)` references: nginx would read `$(` inside a
/// map value as a variable and refuse the configuration.
enum SiteGenerator {
    static func hostName(_ index: Int, count: Int) -> String {
        let width = max(4, String(count).count)
        let digits = String(index)
        return "d" + String(repeating: "0", count: max(0, width - digits.count)) + digits + ".bench.example"
    }

    static func write(directory: String, count: Int) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var map = "map $host $aasa_body {\n    default \"\";\n"
        var total = 0
        for index in 1...count {
            let host = hostName(index, count: count)
            let body = file(index: index)
            total += body.utf8.count
            let hostDirectory = directory + "/aasa/" + host
            let wellKnown = directory + "/www/" + host + "/.well-known"
            try manager.createDirectory(atPath: hostDirectory, withIntermediateDirectories: true)
            try manager.createDirectory(atPath: wellKnown, withIntermediateDirectories: true)
            let file = hostDirectory + "/apple-app-site-association"
            try Data(body.utf8).write(to: URL(fileURLWithPath: file))
            // The same inode for nginx "files": same bytes, same mtime.
            try manager.linkItem(atPath: file, toPath: wellKnown + "/apple-app-site-association")
            // Single-quoted nginx string: the JSON has no `'`, `\` or `$`.
            map += "    \(host) '\(body)';\n"
        }
        map += "}\n"
        try Data(map.utf8).write(to: URL(fileURLWithPath: directory + "/nginx-map.conf"))
        FileHandle.standardError.write(Data("wrote \(count) hosts, \(total / count) bytes per file on average\n".utf8))
    }

    static let sections = [
        "shop", "products", "p", "collections", "deals", "men", "orders", "account", "women", "home",
        "garden", "blog", "sport", "beauty", "share", "tech", "wishlist", "reviews", "brand", "kids",
    ]

    /// One realistic file for host number `index`: two apps, ~20 rules with
    /// excludes first, query dictionaries, fragments and case-folding defaults.
    static func file(index: Int) -> String {
        let team = String(format: "%05X", (index * 7919) % 0xFFFFF).uppercased() + "Q7K2M"
        let bundle = "com.brand\(index).app"
        let app = "\(team).\(bundle)"
        let section = { (offset: Int) in sections[(index + offset) % sections.count] }
        // Excludes first: an exclude after an include covering it is an error.
        let components: [String] = [
            #"{ "/": "/\#(section(7))/settings/*", "exclude": true, "comment": "Account pages stay on the web." }"#,
            #"{ "/": "/checkout/*", "exclude": true }"#,
            #"{ "/": "/\#(section(0))/*/preview", "exclude": true }"#,
            #"{ "/": "/recipes/*", "exclude": true, "?": { "print": "1" } }"#,
            #"{ "/": "/events/*/tickets/*", "exclude": true, "comment": "Ticketing is a partner site." }"#,
            #"{ "/": "/\#(section(0))/*", "comment": "Product and category pages." }"#,
            #"{ "/": "/\#(section(1))/????/*" }"#,
            #"{ "/": "/\#(section(2))/*", "?": { "ref": "?*" } }"#,
            #"{ "/": "/\#(section(3))/*", "?": { "utm_source": "newsletter*", "id": "?*" } }"#,
            ##"{ "/": "/\##(section(4))/*", "#": "open-in-app*" }"##,
            #"{ "/": "/invite/*", "?": { "code": "?????*" }, "comment": "Invitations with a code." }"#,
            #"{ "/": "/\#(section(5))/*/reviews", "caseSensitive": true }"#,
            #"{ "/": "/\#(section(6))/orders/*", "percentEncoded": false }"#,
            #"{ "/": "/\#(section(8))/*", "?": { "lang": "??", "ref": "*" }, "comment": "Localised landings." }"#,
            #"{ "/": "/stores/*/today" }"#,
            #"{ "/": "/gift/*", "?": "card=*" }"#,
            #"{ "/": "/recipes/*" }"#,
            #"{ "/": "/events/*", "comment": "Event pages open the app; tickets do not." }"#,
            ##"{ "/": "/help/*", "#": "*", "comment": "Help centre, any anchor." }"##,
            #"{ "/": "/l/\#(index)/*" }"#,
        ]
        let body = components.map { "          " + $0 }.joined(separator: ",\n")
        return """
            {
              "applinks": {
                "defaults": { "caseSensitive": false },
                "details": [
                  {
                    "appIDs": [ "\(app)", "\(team).\(bundle).beta" ],
                    "components": [
            \(body)
                    ]
                  },
                  {
                    "appIDs": [ "\(team).\(bundle).kiosk" ],
                    "components": [
                      { "/": "/kiosk/*", "comment": "In-store kiosks." },
                      { "/": "/stores/*/today" }
                    ]
                  }
                ]
              },
              "webcredentials": {
                "apps": [ "\(app)", "\(team).\(bundle).beta" ]
              },
              "appclips": {
                "apps": [ "\(team).\(bundle).Clip" ]
              }
            }

            """
    }
}

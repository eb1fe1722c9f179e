import NIOCore

/// The addresses of this machine a phone on the same network can reach:
/// every interface address except loopback and IPv6 link-local (which needs
/// a zone the phone does not know). NIO enumerates interfaces with
/// `getifaddrs`, on Darwin as on Linux.
enum LANAddresses {
    struct Address: Hashable, Comparable {
        let interface: String
        let ip: String
        let isIPv4: Bool

        static func < (lhs: Address, rhs: Address) -> Bool {
            (lhs.isIPv4 ? 0 : 1, lhs.interface, lhs.ip) < (rhs.isIPv4 ? 0 : 1, rhs.interface, rhs.ip)
        }
    }

    static func current() -> [Address] {
        let devices = (try? System.enumerateDevices()) ?? []
        var addresses: Set<Address> = []
        for device in devices {
            guard let address = device.address, let ip = address.ipAddress else { continue }
            switch address {
            case .v4:
                if !ip.hasPrefix("127.") { addresses.insert(Address(interface: device.name, ip: ip, isIPv4: true)) }
            case .v6:
                let lower = ip.lowercased()
                if lower != "::1", !lower.hasPrefix("fe80:") {
                    addresses.insert(Address(interface: device.name, ip: ip, isIPv4: false))
                }
            case .unixDomainSocket:
                continue
            }
        }
        return addresses.sorted()
    }
}

import AASAKit
import Logging

/// What ``DescriptorBudget/settle(_:)`` decided: the open-file limit in
/// force and the connection caps the listeners enforce.
struct DescriptorPlan: Sendable, Equatable {
    let budget: DescriptorBudget
    /// The limit after any raise; nil when it could not be read.
    let limit: DescriptorLimit?
    /// The soft limit before the raise, when it was raised.
    let raisedFrom: Int?
    /// The cap on serving connections (HTTP and HTTPS together).
    let effectiveMaxConnections: Int
    /// The cap on admin connections; nil when the admin listener is off.
    let effectiveAdminMaxConnections: Int?

    /// A cap is below its configured value.
    var isLowered: Bool {
        effectiveMaxConnections < budget.maxConnections
            || effectiveAdminMaxConnections != budget.adminMaxConnections
    }

    /// Not even one serving connection fits beside the reserve.
    var shortage: DescriptorShortage? {
        guard effectiveMaxConnections < 1, let limit else { return nil }
        let listeners = budget.adminMaxConnections == nil ? 1 : 2
        return DescriptorShortage(
            limit: limit.soft,
            hardLimit: limit.hard,
            reserve: budget.reserve,
            minimum: budget.reserve + listeners,
            needed: budget.needed
        )
    }

    /// One line at startup: a notice when the limit was raised, a warning
    /// naming the limit and both caps when the caps had to be lowered.
    func log(to logger: Logger) {
        guard let limit else {
            logger.warning("the open-file limit (RLIMIT_NOFILE) could not be read; connection caps are not checked")
            return
        }
        if let raisedFrom {
            logger.notice(
                "raised the open-file limit for the connection caps",
                metadata: ["from": "\(raisedFrom)", "to": "\(limit.soft)", "needed": "\(budget.needed)"]
            )
        }
        guard isLowered else { return }
        var metadata: Logger.Metadata = [
            "limit": "\(limit.soft)",
            "hardLimit": "\(limit.hard)",
            "maxConnections": "\(budget.maxConnections)",
            "effectiveMaxConnections": "\(effectiveMaxConnections)",
            "reserve": "\(budget.reserve)",
            "needed": "\(budget.needed)",
        ]
        var admin = ""
        if let configured = budget.adminMaxConnections, let effective = effectiveAdminMaxConnections {
            admin = " and \(effective) admin connections (admin.maxConnections \(configured))"
            metadata["adminMaxConnections"] = "\(configured)"
            metadata["effectiveAdminMaxConnections"] = "\(effective)"
        }
        logger.warning(
            """
            the open-file limit (RLIMIT_NOFILE) is \(limit.soft), below the \(budget.needed) descriptors the \
            connection caps and a reserve of \(budget.reserve) need: serving at most \(effectiveMaxConnections) \
            connections (limits.maxConnections \(budget.maxConnections))\(admin); connections past that get 503. \
            \(DescriptorShortage.howToRaise(to: budget.needed))
            """,
            metadata: metadata
        )
    }

    /// `/status`'s `descriptors` object.
    var json: JSONValue {
        var object = JSONObject()
        object["limit"] = limit.map { .number(Double($0.soft)) } ?? .null
        object["hardLimit"] = limit.map { .number(Double($0.hard)) } ?? .null
        object["raisedFrom"] = raisedFrom.map { .number(Double($0)) } ?? .null
        object["reserve"] = .number(Double(budget.reserve))
        object["needed"] = .number(Double(budget.needed))
        object["maxConnections"] = .number(Double(budget.maxConnections))
        object["effectiveMaxConnections"] = .number(Double(effectiveMaxConnections))
        object["adminMaxConnections"] = budget.adminMaxConnections.map { .number(Double($0)) } ?? .null
        object["effectiveAdminMaxConnections"] = effectiveAdminMaxConnections.map { .number(Double($0)) } ?? .null
        return .object(object)
    }
}

/// What a Hue output asks its bridge, with its application key, failures turned into what the log and
/// `config check` say.
extension HueTarget {
    /// The configured area, found by name or id in the bridge's list.
    func area(using client: HueBridgeClient) throws(HueStreamProblem) -> HueEntertainmentArea {
        let reply = try request(client, .get, "/clip/v2/resource/entertainment_configuration", body: nil)
        if reply.status == 401 || reply.status == 403 {
            throw .refused("the bridge at \(bridge) refused the application key (HTTP \(reply.status)); \(pairAgain)")
        }
        guard reply.status == 200 else { throw .refused("the bridge at \(bridge) answered HTTP \(reply.status) to the area list") }
        let areas: [HueEntertainmentArea]
        do { areas = try HueEntertainmentArea.list(from: reply.body) } catch { throw .refused("area list from \(bridge): \(error)") }
        guard let found = HueEntertainmentArea.named(area, in: areas) else {
            let known = areas.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw .unknownArea("the bridge at \(bridge) has no entertainment area \"\(area)\" (it has: \(known.isEmpty ? "none" : known))")
        }
        return found
    }

    func request(
        _ client: HueBridgeClient, _ method: HueBridgeClient.Method, _ path: String, body: String?, timeout: Double = HueStreamLoop.requestTimeout
    ) throws(HueStreamProblem) -> HueBridgeClient.Response {
        do {
            return try client.request(method, path, body: body.map { Array($0.utf8) }, key: pairing.applicationKey, timeout: timeout)
        } catch {
            if case .certificateChanged = error {
                throw .refused(
                    "refusing the Hue bridge at \(bridge): \(error). If the bridge was replaced or reset, \(pairAgain); "
                        + "otherwise something on the network is posing as it"
                )
            }
            throw .unreachable("the Hue bridge at \(bridge): \(error)")
        }
    }
}

import LightShowAudio
import LightShowConfig
public import LightShowControl
import LightShowCore
import LightShowEngine
import LightShowLights
import LightShowSystem
import Logging
import Synchronization

extension DaemonService {
    /// Reads the configuration again. A bad one leaves the running one in place and its errors go back to the
    /// caller; a good one applies live, reopening the input only when `[input]` (or the player) changed.
    public func reload(caller: String) async -> ControlReply {
        await reloads.submit(.reload(caller: caller))
    }

    /// `set-band`: a band's range from a viewer's tuning panel, checked exactly as the config file checks it (an
    /// error names the key), applied to the analysis at once and told to every viewer. The config file is left as
    /// it is: a reload goes back to it.
    public func setBand(_ arguments: JSONObject) async -> ControlReply {
        guard let name = arguments["band"]?.stringValue, let band = Band(rawValue: name) else {
            let given = arguments["band"].map { SafeText.sanitized("\($0)", limit: 40) } ?? "nothing"
            return .failure("band must be one of bass, mid, treble, found \(given)")
        }
        var edges: [String: Double] = [:]
        for key in ["lower", "upper"] {
            guard let value = arguments[key] else { continue }
            guard let number = value.numberValue, number.isFinite else {
                return .failure("bands.\(band.rawValue).\(key): expected a number of Hz, found \(SafeText.sanitized("\(value)", limit: 40))")
            }
            edges[key] = number
        }
        return await reloads.submit(.setBand(band, lower: edges["lower"], upper: edges["upper"]))
    }

    /// Carries a request out, for the reload queue's worker: the blocking steps (reading files, the parser's child
    /// process, the lights' host lookups) each on a thread of their own, the web server's start awaited.
    func apply(_ request: ReloadQueue.Request) async -> ControlReply {
        switch request {
        case .reload(let caller): await reloadNow(caller: caller)
        case .setBand(let band, let lower, let upper): await offPool { [self] in setBandNow(band, lower: lower, upper: upper) }
        case .setInput(let text): await offPool { [self] in setInputNow(text) }
        case .edit(let what, let change): await offPool { [self] in editNow(what, change) }
        }
    }

    /// The thread every reload's blocking steps run on, started on first use.
    private func reloadThread() throws(LightShowError) -> WorkerThread {
        try reloadWorker.withLock { (worker: inout WorkerThread?) throws(LightShowError) -> WorkerThread in
            if let worker { return worker }
            let started = try WorkerThread(name: "ls-reload")
            worker = started
            return started
        }
    }

    /// `body`'s reply, from the reload thread.
    private func offPool(_ body: @escaping @Sendable () -> ControlReply) async -> ControlReply {
        do throws(LightShowError) {
            return try await onThread(body)
        } catch {
            return .failure(error.message)
        }
    }

    /// `body`'s result, from the reload thread; throws only when no thread can be had.
    private func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async throws(LightShowError) -> Value {
        do {
            return try await reloadThread().complete(body)
        } catch {
            throw error as? LightShowError ?? LightShowError("reload: \(error)", exitStatus: .ioError)
        }
    }

    private func reloadNow(caller: String) async -> ControlReply {
        let announces = isReady.load(ordering: .acquiring)
        if announces { notify { try notifier.reloading() } }
        defer { if announces { notify { try notifier.ready() } } }
        let loaded: (configuration: Result<Configuration, ConfigurationError>, warnings: [String])
        do throws(LightShowError) {
            loaded = try await onThread { [configurationSource] in
                var warnings: [String] = []
                let configuration = Result { () throws(ConfigurationError) in try configurationSource.load { warnings.append($0) } }
                if case .success(let new) = configuration, let alsa = ALSAPCMDefinition.warning(for: new.input.source) {
                    warnings.append("input.source: \(alsa)")
                }
                return (configuration, warnings)
            }
        } catch {
            return .failure(error.message)
        }
        let new: Configuration
        switch loaded.configuration {
        case .success(let configuration):
            new = configuration
        case .failure(let error):
            logger.error("reload (\(caller)) failed; keeping the running configuration:\n\(error.description)")
            metrics.reloaded(ok: false)
            return .failure(error.description)
        }
        let warnings = loaded.warnings
        for warning in warnings { logger.warning("\(warning)") }
        // The web server first: a new address may be taken; then nothing changes and the old one keeps serving.
        let old = state.configuration
        if new.web != old.web, let problem = await applyWeb(new.web) {
            logger.error("reload (\(caller)) failed; keeping the running configuration: \(problem)")
            metrics.reloaded(ok: false)
            return .failure(problem)
        }
        // Then the lights: they may look host names up; if they can't take the new entries, nothing changes.
        let adopted: Result<ReloadPlan, LightShowError>
        do throws(LightShowError) {
            adopted = try await onThread { [self] in
                do throws(LightShowError) {
                    try lights.reconfigure(new)
                } catch {
                    return .failure(error)
                }
                configuredInput.withLock { $0 = new.input.source }
                return .success(adopt(new))
            }
        } catch {
            adopted = .failure(error)
        }
        let plan: ReloadPlan
        switch adopted {
        case .success(let adopted):
            plan = adopted
        case .failure(let error):
            if new.web != old.web { _ = await applyWeb(old.web) }
            logger.error("reload (\(caller)) failed; keeping the running configuration: \(error.message)")
            metrics.reloaded(ok: false)
            return .failure(error.message)
        }
        if plan.controlWaitsForRestart {
            logger.warning("[control] changes take effect when the daemon restarts")
        }
        if plan.mqttWaitsForRestart {
            logger.warning("[mqtt] changes take effect when the daemon restarts")
        }
        metrics.reloaded(ok: true)
        logger.info("reloaded (\(caller))\(plan.restartsInput ? "; reopening \(new.input.source)" : "")")
        return .success([
            "config": .string(configurationSource.file ?? "(built-in defaults)"),
            "input_restarted": .bool(plan.restartsInput),
            "warnings": .array(warnings.map { .string($0) }),
        ])
    }

    private func setBandNow(_ band: Band, lower: Double?, upper: Double?) -> ControlReply {
        var new = state.configuration
        let problems = BandRangeEdit.apply(band, lower: lower, upper: upper, to: &new.bands)
        guard problems.isEmpty else { return .failure(problems.joined(separator: "; ")) }
        _ = adopt(new)
        let range = new.bands[band].range
        logger.info("set-band: \(band.rawValue) \(range.lower.compact)–\(range.upper.compact) Hz")
        return .success(["band": .string(band.rawValue), "lower": .number(range.lower), "upper": .number(range.upper)])
    }

    /// `set-color`: a colour (`"#RRGGBB"`) for one band's light (`"band"`), or for all three without it, until the
    /// next reload.
    public func setColor(_ arguments: JSONObject) async -> ControlReply {
        guard let text = arguments["color"]?.stringValue, text.hasPrefix("#"), let color = RGBColor(hex: text) else {
            let given = arguments["color"].map { SafeText.sanitized("\($0)", limit: 40) } ?? "nothing"
            return .failure("color: expected \"#RRGGBB\", found \(given)")
        }
        let bands: [Band]
        if let given = arguments["band"] {
            guard let band = given.stringValue.flatMap(Band.init(rawValue:)) else {
                return .failure("band: expected bass, mid or treble, found \(SafeText.sanitized("\(given)", limit: 40))")
            }
            bands = [band]
        } else {
            bands = Band.allCases
        }
        let what = bands.count == 1 ? "set-color \(bands[0].rawValue) \(color.hex)" : "set-color \(color.hex)"
        return await reloads.submit(.edit(what) { configuration in
            for band in bands { configuration.bands[band].color = color }
            var result: JSONObject = ["color": .string(color.hex)]
            if bands.count == 1 { result["band"] = .string(bands[0].rawValue) }
            return .object(result)
        })
    }

    /// `set-brightness`: the master brightness, 0…1, until the next reload.
    public func setBrightness(_ arguments: JSONObject) async -> ControlReply {
        guard let level = arguments["brightness"]?.numberValue, level.isFinite, SceneSettings.brightnessRange.contains(level) else {
            let given = arguments["brightness"].map { SafeText.sanitized("\($0)", limit: 40) } ?? "nothing"
            return .failure("brightness: expected a number 0-1, found \(given)")
        }
        return await reloads.submit(.edit("set-brightness \(level.compact)") { configuration in
            configuration.scene.brightness = level
            return ["brightness": .number(level)]
        })
    }

    /// `set-input`: capture from another of the inputs the daemon offers (`InputChoices`), until the next reload.
    /// Anything else is refused and the show keeps its input: a name from a client never reaches ALSA unlisted.
    public func setInput(_ arguments: JSONObject) async -> ControlReply {
        guard let text = arguments["input"]?.stringValue, text.utf8.count <= InputChoices.maximumNameBytes, InputSpec(parsing: text) != nil else {
            let given = arguments["input"].map { SafeText.sanitized("\($0)", limit: 80) } ?? "nothing"
            return .failure("input: expected one of the inputs `status` lists, found \(given)")
        }
        return await reloads.submit(.setInput(text))
    }

    /// The list is read again for each request (devices come and go), on the reload thread: it may wait a moment
    /// for the sound server.
    private func setInputNow(_ text: String) -> ControlReply {
        let offered = refreshOfferedInputs()
        if let refusal = InputChoices.refusal(text, offered: offered) {
            logger.warning("set-input refused: \(refusal)")
            return .failure(refusal)
        }
        guard let input = InputSpec(parsing: text) else { return .failure("input: \(SafeText.sanitized(text, limit: 80)) is not an input") }
        return editNow("set-input \(input)") { configuration in
            configuration.input.source = input
            return ["input": .string(input.description)]
        }
    }

    /// Reads the inputs offered now and keeps them for `status`. Blocks: call it off the cooperative pool.
    func refreshOfferedInputs(askingSoundServer: Bool = true) -> [String] {
        let names = InputChoices.names(configured: configuredInput.withLock { $0 }, askingSoundServer: askingSoundServer)
        offeredInputs.withLock { $0 = names }
        logger.info("inputs: \(names.count) offered to clients")
        return names
    }

    /// The inputs `status` shows. The first call starts reading them on a thread of its own and shows `demo` and
    /// the configured input until that read ends: a daemon nobody asks never reads ALSA's device hints, and loads
    /// libpulse for them only when its input is a pulse one (`set-input` asks the sound server anyway).
    func statusInputs() -> [String] {
        if let names = offeredInputs.withLock({ $0 }) { return names }
        if offeredInputsRequested.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            let asking: Bool = if case .pulse = configuredInput.withLock({ $0 }) { true } else { false }
            do {
                try DedicatedThread.start(name: "ls-inputs") { [self] in _ = refreshOfferedInputs(askingSoundServer: asking) }
            } catch {
                offeredInputsRequested.store(false, ordering: .releasing)
            }
        }
        let configured = configuredInput.withLock { $0 }.spelling
        return configured == "demo" ? ["demo"] : ["demo", configured]
    }

    /// Changes the running configuration (not the file: a reload goes back to it) and applies it as a reload would:
    /// the lights take the new colours first, then the plan.
    private func editNow(_ what: String, _ change: ReloadQueue.Edit) -> ControlReply {
        var new = state.configuration
        let result = change(&new)
        guard new != state.configuration else { return .success(result) }
        do throws(LightShowError) {
            try lights.reconfigure(new)
        } catch {
            return .failure(error.message)
        }
        _ = adopt(new)
        logger.info("\(what)")
        return .success(result)
    }

    /// Makes `new` the running configuration and carries out what the change from the old one takes.
    private func adopt(_ new: Configuration) -> ReloadPlan {
        let old = state.replaceConfiguration(with: new)
        subscriberDelay.withLock { $0 }?.setDelay(milliseconds: new.output.delayMilliseconds)
        let plan = ReloadPlan(from: old, to: new)
        if plan.publishesScene { publishScene(new) }
        supervisor.adopt(new, restart: plan.restartsInput)
        return plan
    }
}

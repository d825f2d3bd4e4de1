// Long-running services: engine, control socket, sd_notify, MPD client.

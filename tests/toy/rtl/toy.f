// The toy device's RTL (tests/toy/device.toml), relative to the repository root.
tests/toy/rtl/toy_counter.sv

import Testing
import TestSupport

/// Everything that runs the real llama-server, one test at a time: the machine has two cores, and
/// timing assertions mean nothing when servers compete for them.
@Suite(.serialized, .needs(.server)) struct IntegrationTests {}

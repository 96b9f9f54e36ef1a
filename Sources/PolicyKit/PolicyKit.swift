// Every layer of policyc in one import, for the command line, the plugin and the fuzzers. Code
// inside the package imports the layer it needs (see Package.swift for the direction they run).
@_exported import PolicySource
@_exported import PolicyCheck
@_exported import PolicyReport
@_exported import PolicyCodegen
@_exported import PolicySimulation
@_exported import PolicyReview
@_exported import PolicyWorkspace
@_exported import PolicyFormat
@_exported import PolicyEditor
@_exported import PolicySystem
@_exported import PolicyTraffic

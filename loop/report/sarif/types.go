package sarif

// The part of SARIF 2.1.0 that the log uses (OASIS SARIF 2.1.0, §3: sarifLog, run, tool,
// reportingDescriptor, result, location). Optional fields are omitted when empty.

// Log is the sarifLog object.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of one tool.
type Run struct {
	Tool Tool `json:"tool"`
	// OriginalURIBaseIDs maps SRCROOT to the repository root's file URI.
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind,omitempty"`
	Results            []Result                    `json:"results"`
}

// Tool is the analysis tool.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool's component that ran.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is a reportingDescriptor: here one mutation operator.
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     Message        `json:"shortDescription"`
	FullDescription      Message        `json:"fullDescription"`
	Help                 Message        `json:"help"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
	Properties           map[string]any `json:"properties,omitempty"`
}

// Configuration is a reportingConfiguration.
type Configuration struct {
	Level string `json:"level"`
}

// Message is a plain-text message.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding: a surviving mutant.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

// Location is where a result is.
type Location struct {
	PhysicalLocation PhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []LogicalLocation `json:"logicalLocations,omitempty"`
}

// PhysicalLocation is a region of a file.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           Region           `json:"region"`
}

// ArtifactLocation is a file, relative to a base id, or (as a base) an absolute URI.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a part of a file; lines 1-based, EndColumn one past the last character.
type Region struct {
	StartLine   int      `json:"startLine"`
	StartColumn int      `json:"startColumn,omitempty"`
	EndLine     int      `json:"endLine,omitempty"`
	EndColumn   int      `json:"endColumn,omitempty"`
	Snippet     *Snippet `json:"snippet,omitempty"`
}

// Snippet is the text of a region.
type Snippet struct {
	Text string `json:"text"`
}

// LogicalLocation names the method.
type LogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

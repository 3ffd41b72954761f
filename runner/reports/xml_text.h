// Text for XML and HTML documents (junit.xml, report.html, timeline.html, SVG charts).
#pragma once

#include <string>

namespace jsched::runner {

// `s` escaped for element text and attribute values; control characters other than newline
// and tab, which XML does not allow, are dropped.
std::string xml_text(const std::string& s);

}  // namespace jsched::runner

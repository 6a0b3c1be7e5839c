// Each import defines its element; the app element renders them all.
import "./problems-card.js";
import "./health-card.js";
import "./connect-card.js";
import "./sessions-card.js";
import "./turn-timeline.js";
import "./approval-card.js";
import "./usage-card.js";
import "./console-app.js";

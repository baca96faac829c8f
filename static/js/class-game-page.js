/* A class game's page that has no socket of its own (the search tree): one for the class. */
"use strict";
import { ClassStudent } from "./class-student.js";
ClassStudent.onGamePage(null);

/* The class tournament on a student's phone (class-formats-student.js calls it). */
export function tournamentPart() {
  return { show() {} };
}

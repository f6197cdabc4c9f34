; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x192176 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x206009 (= ?x192176 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x191480 (>= n 1)))
(and $x191480 (or (and (distinct true true) true) (and true (not $x206009))))))))
(check-sat)
